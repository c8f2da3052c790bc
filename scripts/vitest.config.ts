import { chargekitProject } from '../vitest.shared.ts'

// The repository's own tooling: the step runner of setup and the test command.
export default chargekitProject('scripts')
