import { fork } from 'node:child_process'

/**
 * Forks `module` (a bench's server part, run by tsx like the bench itself) with `args`, and
 * resolves once it sends its first message (what it announces when ready, such as its URL).
 * `close()` sends it `'close'` and resolves when it has exited. Benches put the service in a
 * process of its own because it never shares its merchants' event loop in real use: in one
 * process, every client and receiver would wait behind the service's work.
 */
export async function startChildProcess<Ready>(module: URL, args: string[] = []) {
  const child = fork(module, args)
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready))
    child.once('exit', (code) => reject(new Error(`${module.pathname} exited with ${code}`)))
  })
  return {
    ready,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.send('close')
      }),
  }
}
