#!/usr/bin/python3
"""Exports every chart of a workbook as a PNG with headless LibreOffice (Debian's /usr/bin/python3, python3-uno).

Usage: lo_charts.py WORKBOOK OUT_DIR PIPE_NAME [PARENT_PID]. soffice must already listen on the pipe (the caller starts
it with its own profile). With PARENT_PID (the caller's pid), the script is killed when its parent dies, even by
SIGKILL (PR_SET_PDEATHSIG), and exits at once if that parent was already gone. Prints one JSON object:
{"charts": [{"sheet": NAME, "index": N, "file": PATH}], "error"?: str}. Charts are OLE objects on each sheet's draw
page; each is exported with GraphicExportFilter. The workbook is loaded as uno_session.load_spreadsheet loads it for
recalculation: hidden, read-only, macros and links never run.
"""
import ctypes
import json
import os
import signal
import sys


PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid):
    """SIGKILL at the parent's death; then a check that the parent did not die before it was asked for."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)


if __name__ == "__main__" and len(sys.argv) > 4:
    die_with_parent(int(sys.argv[4]))

import uno  # noqa: E402 - after die_with_parent: an orphan does not wait for the import
from uno_session import close, connect, describe, desktop_of, load_spreadsheet, props  # noqa: E402

CHART_CLSID = "12DCAE26-281F-416F-A234-C3086127382E"
CONNECT_TIMEOUT_S = 60


def is_chart(shape):
    try:
        return shape.getShapeType() == "com.sun.star.drawing.OLE2Shape" and shape.CLSID.upper() == CHART_CLSID
    except Exception:
        return False


def title_of(shape):
    """The chart's main title as shown ('' when it has none or it cannot be read)."""
    try:
        model = shape.Model
        return model.getTitle().String if model.HasMainTitle else ""
    except Exception:
        return ""


def export_sheet_charts(ctx, sheet, number, out_dir):
    page = sheet.getDrawPage()
    charts = []
    for i in range(page.getCount()):
        shape = page.getByIndex(i)
        if not is_chart(shape):
            continue
        target = os.path.join(out_dir, "chart-%d-%d.png" % (number, len(charts) + 1))
        exporter = ctx.ServiceManager.createInstanceWithContext("com.sun.star.drawing.GraphicExportFilter", ctx)
        exporter.setSourceDocument(shape)
        exporter.filter(props(URL=uno.systemPathToFileUrl(target), MediaType="image/png"))
        charts.append({"sheet": sheet.getName(), "index": len(charts) + 1, "file": target, "title": title_of(shape)})
    return charts


def main():
    workbook, out_dir, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
    ctx = connect(pipe, CONNECT_TIMEOUT_S)
    doc = load_spreadsheet(desktop_of(ctx), os.path.abspath(workbook))
    charts = []
    try:
        sheets = doc.getSheets()
        for s in range(sheets.getCount()):
            charts.extend(export_sheet_charts(ctx, sheets.getByIndex(s), s + 1, out_dir))
    finally:
        close(doc)
    json.dump({"charts": charts}, sys.stdout)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:
        json.dump({"charts": [], "error": str(err) if isinstance(err, RuntimeError) else describe(err)}, sys.stdout)
        sys.exit(1)
