'use strict'

const { runChecks } = require('./checks.cjs')

const packages = { schemas: require('@chargekit/schemas'), client: require('@chargekit/client') }
runChecks(packages, require('./fixtures.json')).then((result) => {
  console.log(JSON.stringify(result))
})
