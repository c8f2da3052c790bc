import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseTempDir, databaseTempFolder, removeLeftovers } from '../database-temp-dir'

const made: string[] = []
const children: ChildProcess[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const folder of made.splice(0)) await rm(folder, { recursive: true, force: true })
})

/** A process id that no process has any more: a child's, once it has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.once('exit', resolve))
  return child.pid as number
}

async function folderOf(owner: number, name: string): Promise<string> {
  const folder = join(databaseTempDir(), `chargekit-${owner}-${name}-test${made.length}`)
  made.push(folder)
  await mkdir(join(folder, 'data'), { recursive: true })
  return folder
}

/** A running process whose command line names `words`, as a postmaster's names its folder. */
async function processNaming(...words: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ...words])
  children.push(child)
  await new Promise((resolve) => child.once('spawn', resolve))
  return child
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve))

describe('the temp folders of test databases', () => {
  it('are named after the process that made them', async () => {
    const folder = await databaseTempFolder('check')
    made.push(folder)
    expect(folder.startsWith(join(databaseTempDir(), `chargekit-${process.pid}-check-`))).toBe(true)
    expect(existsSync(folder)).toBe(true)
  })

  it('are removed once their process is gone, and left alone while it runs or when not ours', async () => {
    const dead = await folderOf(await deadPid(), 'pg')
    const live = await folderOf(process.pid, 'pg')
    const other = join(databaseTempDir(), `chargekit-other-${made.length}`)
    made.push(other)
    await mkdir(other)
    await removeLeftovers()
    expect(existsSync(dead)).toBe(false)
    expect(existsSync(live)).toBe(true)
    expect(existsSync(other)).toBe(true)
  })

  it('stop the postmaster still running in a dead run’s folder, and no other process', async () => {
    const folder = await folderOf(await deadPid(), 'pg')
    const data = join(folder, 'data')
    const postmaster = await processNaming('postgres', '-D', data)
    await writeFile(join(data, 'postmaster.pid'), `${postmaster.pid}\n${data}\n`)
    const elsewhere = await folderOf(await deadPid(), 'pg')
    // Its postmaster.pid names a process the system has given to something else since.
    const bystander = await processNaming('postgres', '-D', '/somewhere/else')
    await writeFile(join(elsewhere, 'data', 'postmaster.pid'), `${bystander.pid}\n`)

    await removeLeftovers()
    await exited(postmaster)
    expect(postmaster.signalCode).toBe('SIGQUIT')
    expect(existsSync(folder)).toBe(false)
    expect(bystander.exitCode).toBeNull()
    expect(bystander.signalCode).toBeNull()
    expect(existsSync(elsewhere)).toBe(false)
  })
})
