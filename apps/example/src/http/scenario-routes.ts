import { Hono } from 'hono'
import { runScenario } from '../scenarios/run-scenario.js'
import { scenarioRunRepository } from '../scenarios/scenario-run-repository.js'
import type { ShopContext } from '../shop-context.js'
import { scenariosPage } from '../views/scenarios-page.js'
import { parseScenarioForm } from './forms.js'
import { type RenderPage, readForm } from './render.js'

/** The test-scenarios panel: run an amount-coded decline and show it (result page is shareable). */
export function scenarioRoutes(context: ShopContext, render: RenderPage) {
  return new Hono()
    .get('/scenarios', (c) => render(c, 'Test scenarios', scenariosPage({})))
    .post('/scenarios', async (c) => {
      const body = await readForm(c)
      const form = parseScenarioForm(body)
      if (!form.ok) {
        const selected = {
          ...(typeof body.code === 'string' ? { code: body.code } : {}),
          ...(typeof body.element === 'string' ? { element: body.element } : {}),
        }
        return render(c, 'Test scenarios', scenariosPage({ errors: form.errors, selected }), 400)
      }
      const result = await runScenario(context, form.value.code, form.value.element)
      return c.redirect(`/scenarios/${result.id}`, 303)
    })
    .get('/scenarios/:id', async (c) => {
      const result = await scenarioRunRepository.find(context.db, c.req.param('id'))
      return result ? render(c, 'Test scenario', scenariosPage({ result })) : c.notFound()
    })
}
