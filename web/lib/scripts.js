// Loads the UMD builds (vega, vega-lite, vega-embed, papaparse) once, only when a page first needs them.
// Their versioned URLs come from the page (server/routes/web.ts), never from a CDN.

const urls = JSON.parse(document.getElementById('vendor-scripts')?.textContent ?? '{}');
const loading = new Map();

export function loadScript(name) {
  if (!loading.has(name)) {
    loading.set(
      name,
      new Promise((resolve, reject) => {
        const isCss = name.endsWith('.css');
        const el = document.createElement(isCss ? 'link' : 'script');
        if (isCss) Object.assign(el, { rel: 'stylesheet', href: urls[name] });
        else el.src = urls[name];
        el.onload = resolve;
        el.onerror = () => reject(new Error(`could not load ${name} from ${urls[name]}`));
        document.head.append(el);
      }),
    );
  }
  return loading.get(name);
}

/**
 * vega-embed with its peers, in order, and Vega's expression interpreter (an ES module, from the import map). The page's
 * CSP forbids eval, so charts must be embedded with `{ ast: true, expr }`: expressions interpreted, never compiled.
 */
export async function loadVegaEmbed() {
  const [interpreter] = await Promise.all([import('vega-interpreter'), loadVegaScripts()]);
  return { embed: window.vegaEmbed, expr: interpreter.expressionInterpreter };
}

async function loadVegaScripts() {
  await loadScript('vega');
  await loadScript('vega-lite');
  await loadScript('vega-embed');
}

export async function loadPapa() {
  await loadScript('papaparse');
  return window.Papa;
}
