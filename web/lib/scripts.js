// Loads the UMD builds (vega, vega-lite, vega-embed, papaparse) once, only when a page first needs them.
// Their versioned URLs come from the page (server/routes/web.ts), never from a CDN.

/** @type {Record<string, string>} name → URL, as the server wrote them into the page */
const urls = JSON.parse(document.getElementById('vendor-scripts')?.textContent ?? '{}');
/** @type {Map<string, Promise<unknown>>} */
const loading = new Map();

/**
 * The globals the UMD builds define once loaded, typed by their packages.
 * @typedef {{ vegaEmbed: typeof import('vega-embed').default; Papa: typeof import('papaparse') }} VendorGlobals
 */
const vendor = /** @type {Window & Partial<VendorGlobals>} */ (window);

/**
 * Loads a vendor script or stylesheet by its name in the page's list, once.
 * @param {string} name
 * @returns {Promise<unknown>}
 */
export function loadScript(name) {
  if (!loading.has(name)) {
    loading.set(
      name,
      new Promise((resolve, reject) => {
        const isCss = name.endsWith('.css');
        const el = isCss
          ? Object.assign(document.createElement('link'), { rel: 'stylesheet', href: urls[name] })
          : Object.assign(document.createElement('script'), { src: urls[name] });
        el.onload = resolve;
        el.onerror = () => reject(new Error(`could not load ${name} from ${urls[name]}`));
        document.head.append(el);
      }),
    );
  }
  return /** @type {Promise<unknown>} set above */ (loading.get(name));
}

/**
 * vega-embed with its peers, in order, and Vega's expression interpreter (an ES module, from the import map). The page's
 * CSP forbids eval, so charts must be embedded with `{ ast: true, expr }`: expressions interpreted, never compiled.
 */
export async function loadVegaEmbed() {
  const [interpreter] = await Promise.all([import('vega-interpreter'), loadVegaScripts()]);
  return { embed: loaded(vendor.vegaEmbed, 'vega-embed'), expr: interpreter.expressionInterpreter };
}

async function loadVegaScripts() {
  await loadScript('vega');
  await loadScript('vega-lite');
  await loadScript('vega-embed');
}

export async function loadPapa() {
  await loadScript('papaparse');
  return loaded(vendor.Papa, 'papaparse');
}

/**
 * A UMD build's global, or an error naming the script that did not define it.
 * @template T
 * @param {T | undefined} global
 * @param {string} name
 * @returns {T}
 */
function loaded(global, name) {
  if (global === undefined) throw new Error(`${name} loaded but did not define its global`);
  return global;
}
