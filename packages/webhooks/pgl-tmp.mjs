import { PGlite } from '@electric-sql/pglite'
let t = Date.now()
const c = await PGlite.create(); console.log('memory', Date.now() - t); t = Date.now()
await c.query('create table x (a int)'); await c.query('insert into x values (1)')
const dump = await c.dumpDataDir('none'); console.log('dump', Date.now() - t, dump.size); t = Date.now()
await c.close()
const d = await PGlite.create({ loadDataDir: dump }); console.log('load', Date.now() - t, (await d.query('select * from x')).rows); t = Date.now()
