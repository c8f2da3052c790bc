import type { SqlExecutor } from '@chargekit/sandbox'
import type { ScenarioResult } from './run-scenario.js'

/** Every SQL statement about scenario runs: each result is kept whole, so its page is shareable. */
export const scenarioRunRepository = {
  async save(db: SqlExecutor, result: ScenarioResult): Promise<void> {
    await db.query(
      'INSERT INTO scenario_runs (id, code, element, order_id, result) VALUES ($1, $2, $3, $4, $5)',
      [result.id, result.code, result.element, result.orderId, JSON.stringify(result)],
    )
  },

  async find(db: SqlExecutor, id: string): Promise<ScenarioResult | undefined> {
    const [row] = await db.query<{ result: ScenarioResult }>(
      'SELECT result FROM scenario_runs WHERE id = $1',
      [id],
    )
    return row?.result
  },
}
