/** The Chromium to use, or undefined when there is none (CHROMIUM_PATH must exist when set). */
export function findChromium(): string | undefined
