"""Runs the cross-check's second program inside the conversation's kernel, computing only (isolatedProgram.ts).

`run(code, helpers)` executes `code` in fresh globals (no sight of the analysis's variables, none of its own left behind),
with the output helpers (save_table, save_chart, ...) bound to functions that do nothing, and plotting made inert:
matplotlib's savefig and show do nothing while it runs, and every figure it opened is closed before the kernel saves
open figures as the turn's charts. It returns the exception the code raised (None when it ran), its traceback cut to
the program's own frames, whose source lines are shown (registered in linecache): the error names the program's
failing line, not the wrapper's, and no library frame pushes it out of the kernel's condensed traceback.
"""
import linecache
import re
import sys

FILENAME = '<second-program>'
_PLOTS = re.compile(r'matplotlib|seaborn|\bplt\b|\.plot\b|\.hist\(|\.boxplot\(')


def _ignore(*args, **kwargs):
    return None


class _InertPlotting:
    """While active: savefig and show do nothing; on exit, the figures opened meanwhile are closed."""

    def __init__(self, code):
        self.active = bool(_PLOTS.search(code))
        self.saved = []

    def __enter__(self):
        if not self.active:
            return self
        try:
            import matplotlib.figure
            import matplotlib.pyplot as plt
        except Exception:  # noqa: BLE001 - no matplotlib: the program's own import reports it
            self.active = False
            return self
        self.plt = plt
        self.before = set(plt.get_fignums())
        for owner, name in ((matplotlib.figure.Figure, 'savefig'), (plt, 'savefig'), (plt, 'show')):
            self.saved.append((owner, name, owner.__dict__.get(name)))
            setattr(owner, name, _ignore)
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self.saved):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
        if self.active:
            for num in set(self.plt.get_fignums()) - self.before:
                self.plt.close(num)
        return False


def _own_frames(tb):
    """The traceback from the program's first frame to its last one (library frames after it dropped)."""
    while tb is not None and tb.tb_frame.f_code.co_filename != FILENAME:
        tb = tb.tb_next
    last = tb
    walk = tb
    while walk is not None:
        if walk.tb_frame.f_code.co_filename == FILENAME:
            last = walk
        walk = walk.tb_next
    if last is not None:
        last.tb_next = None
    return tb


def run(code, helpers):
    lines = code.splitlines(True)
    linecache.cache[FILENAME] = (len(code), None, lines, FILENAME)
    namespace = {'__name__': '__main__'}
    namespace.update({name: _ignore for name in helpers})
    if 'sheetbench_downloads' in sys.modules:
        namespace['web_fetch'] = sys.modules['sheetbench_downloads'].web_fetch
    try:
        with _InertPlotting(code):
            exec(compile(code, FILENAME, 'exec'), namespace)
    except SyntaxError as error:
        return error
    except BaseException as error:  # noqa: BLE001 - the kernel reports it, as for any cell
        own = _own_frames(error.__traceback__)
        return error.with_traceback(own) if own is not None else error
    return None
