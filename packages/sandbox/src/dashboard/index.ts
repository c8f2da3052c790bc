export { createDashboard } from './create-dashboard'
export type { DashboardOptions } from './dashboard-options'
