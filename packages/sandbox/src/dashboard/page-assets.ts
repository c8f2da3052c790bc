import { buildCatalogue } from './build-catalogue'
import { bundleBrowserCode } from './bundle-browser-code'
import { createStaticAsset, type StaticAsset } from './static-assets'

/** The script and stylesheet every dashboard page loads. */
export interface PageAssets {
  script: StaticAsset
  styles: StaticAsset
}

let loading: Promise<PageAssets> | undefined

/**
 * The page assets, made once per process and shared by every dashboard. The catalogue goes in
 * front of the bundled script (which declares `dashboardCatalogue`), so the immutable, cached
 * file carries the installed catalogues and the browser never fetches them separately.
 */
export function loadPageAssets(): Promise<PageAssets> {
  if (loading === undefined) {
    loading = bundleBrowserCode().then(({ script, styles }) => ({
      script: createStaticAsset(
        'dashboard',
        'js',
        `const dashboardCatalogue=${JSON.stringify(buildCatalogue())};\n${script}`,
      ),
      styles: createStaticAsset('dashboard', 'css', styles),
    }))
    // A failed bundle (a syntax error while editing the source) is not kept: the next request
    // tries again.
    loading.catch(() => {
      loading = undefined
    })
  }
  return loading
}
