"""Helpers the analysis sandbox preloads as the module `sheetbench_viz` (also bound as save_table/save_chart/...).

They write the data file and the entry of visualization_manifest.json together, so code never builds manifest paths by
hand. Every open matplotlib figure is saved as a PNG after each execution and listed as an `image` output.
"""
import json
import os
import re
import sys

MANIFEST = 'visualization_manifest.json'
DATA_DIR = 'viz'
FIGURE_DIR = 'figures'
_root = os.getcwd()
_execution = 0
_CHART_TYPES = {'line': 'line_chart', 'bar': 'bar_chart', 'scatter': 'scatter', 'pie': 'pie_chart'}


def _set_root(root):
    global _root
    _root = root


def _slug(text):
    slug = re.sub(r'[^A-Za-z0-9_-]+', '-', str(text)).strip('-').lower()
    return slug[:60] or 'output'


def _load():
    path = os.path.join(_root, MANIFEST)
    try:
        with open(path, encoding='utf-8') as f:
            manifest = json.load(f)
        if isinstance(manifest, dict) and isinstance(manifest.get('outputs'), list):
            return manifest
    except (OSError, ValueError):
        pass
    return {'version': '1.0', 'outputs': []}


def _upsert(entry):
    """Adds the entry, replacing one with the same id; the file is replaced atomically."""
    manifest = _load()
    manifest['version'] = '1.0'
    manifest['outputs'] = [o for o in manifest['outputs'] if not (isinstance(o, dict) and o.get('id') == entry['id'])]
    manifest['outputs'].append({k: v for k, v in entry.items() if v is not None})
    path = os.path.join(_root, MANIFEST)
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(manifest, f, indent=2, default=str)
    os.replace(tmp, path)
    return entry


def _unique_id(prefix):
    taken = {o.get('id') for o in _load()['outputs'] if isinstance(o, dict)}
    n = 1
    while '%s-%d' % (prefix, n) in taken:
        n += 1
    return '%s-%d' % (prefix, n)


def _write_frame(df, ident):
    import pandas as pd
    if not isinstance(df, pd.DataFrame):
        df = pd.DataFrame(df)
    if not isinstance(df.index, pd.RangeIndex):
        df = df.reset_index()
    df.columns = [str(c) for c in df.columns]
    os.makedirs(os.path.join(_root, DATA_DIR), exist_ok=True)
    rel = '%s/%s.csv' % (DATA_DIR, _slug(ident))
    df.to_csv(os.path.join(_root, rel), index=False)
    return df, rel


def _check_columns(df, names):
    missing = [c for c in names if c is not None and c not in df.columns]
    if missing:
        raise KeyError('column(s) %s not in the data (columns: %s)' % (missing, list(df.columns)))


def save_table(df, id=None, title=None, max_rows=None, columns=None, description=None):
    """Saves a DataFrame (or anything pandas can frame) as a table output; returns the manifest entry."""
    ident = id or _unique_id('table')
    df, rel = _write_frame(df, ident)
    if columns:
        _check_columns(df, columns)
    config = {'columns': list(columns) if columns else None, 'maxRows': int(max_rows) if max_rows else None}
    return _upsert({'id': ident, 'type': 'table', 'title': title, 'description': description, 'dataFile': rel,
                    'config': {k: v for k, v in config.items() if v is not None}, 'producedBy': _producer()})


def save_chart(df, kind, x, y, group_by=None, title=None, x_label=None, y_label=None, id=None, description=None):
    """Saves a chart output. kind: line, bar, scatter or pie (for pie, x is the label column and y the value column)."""
    chart = _CHART_TYPES.get(kind, kind if kind in _CHART_TYPES.values() else None)
    if chart is None:
        raise ValueError('kind must be one of %s' % sorted(_CHART_TYPES))
    ident = id or _unique_id(chart.replace('_chart', ''))
    df, rel = _write_frame(df, ident)
    ys = list(y) if isinstance(y, (list, tuple)) else [y]
    _check_columns(df, [x, group_by] + ys)
    if chart == 'pie_chart':
        config = {'labelColumn': x, 'valueColumn': ys[0]}
    else:
        config = {'xColumn': x, 'yColumn': ys if len(ys) > 1 else ys[0], 'xLabel': x_label or x,
                  'yLabel': y_label or (ys[0] if len(ys) == 1 else None), 'groupBy': group_by}
    return _upsert({'id': ident, 'type': chart, 'title': title, 'description': description, 'dataFile': rel,
                    'config': {k: v for k, v in config.items() if v is not None}, 'producedBy': _producer()})


def save_vega_lite(spec, id=None, title=None, description=None):
    """Saves a Vega-Lite spec (dict); its data.url must name a workspace file, e.g. one written by save_table."""
    ident = id or _unique_id('vega')
    return _upsert({'id': ident, 'type': 'vega_lite', 'title': title, 'description': description, 'spec': spec,
                    'producedBy': _producer()})


def save_image(path, id=None, title=None, description=None):
    """Lists an existing image file (png, svg, jpg) of the workspace as an output."""
    rel = os.path.relpath(os.path.abspath(path), _root)
    ident = id or _unique_id('image')
    return _upsert({'id': ident, 'type': 'image', 'title': title, 'description': description, 'file': rel,
                    'producedBy': _producer()})


def _producer():
    return 'execution-%d' % _execution


def _begin_execution():
    global _execution
    _execution += 1


def _capture_figures():
    """Saves every open matplotlib figure as figures/<execution>-<n>.png, lists it as an image, closes it."""
    if 'matplotlib.pyplot' not in sys.modules:
        return []
    plt = sys.modules['matplotlib.pyplot']
    saved = []
    for num in plt.get_fignums():
        fig = plt.figure(num)
        if not fig.get_axes():
            continue
        os.makedirs(os.path.join(_root, FIGURE_DIR), exist_ok=True)
        rel = '%s/execution-%d-figure-%d.png' % (FIGURE_DIR, _execution, num)
        fig.savefig(os.path.join(_root, rel), dpi=100, bbox_inches='tight')
        title = fig._suptitle.get_text() if getattr(fig, '_suptitle', None) else (fig.get_axes()[0].get_title() or None)
        _upsert({'id': 'figure-%d-%d' % (_execution, num), 'type': 'image', 'title': title, 'file': rel,
                 'producedBy': _producer()})
        saved.append(rel)
    plt.close('all')
    return saved


__all__ = ['save_table', 'save_chart', 'save_vega_lite', 'save_image']
