import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Html } from '../views/html.js'
import { type LayoutInfo, layout } from '../views/layout.js'

/** Renders a page inside the layout; every page goes through here. */
export type RenderPage = (
  c: Context,
  title: string,
  body: Html,
  status?: ContentfulStatusCode,
) => Response | Promise<Response>

export function createRenderer(info: LayoutInfo): RenderPage {
  return (c, title, body, status = 200) => c.html(layout(title, body, info), status)
}

/** Reads a urlencoded or multipart form as plain fields (files are not expected anywhere). */
export async function readForm(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? ''
  if (
    !type.startsWith('application/x-www-form-urlencoded') &&
    !type.startsWith('multipart/form-data')
  ) {
    return {}
  }
  return c.req.parseBody()
}
