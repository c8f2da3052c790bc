/**
 * What the page needs from the catalogues: event types for the filter, and each error code's
 * designation for explaining failures on the charge timeline.
 */
export interface DashboardCatalogue {
  eventTypes: { type: string; label: string; family: string }[]
  errorCodes: Record<
    string,
    {
      designation: string
      aliases: readonly string[]
      description: string
      category: string
      retryable: boolean
    }
  >
}

// The server puts `const dashboardCatalogue = {…}` in front of the bundled script, so the
// immutable, cached file carries the catalogues of the installed packages and the browser never
// fetches them separately.
declare const dashboardCatalogue: DashboardCatalogue

export const catalogue: DashboardCatalogue = dashboardCatalogue
