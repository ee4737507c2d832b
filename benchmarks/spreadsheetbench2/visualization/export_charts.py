#!/usr/bin/python3
"""Exports every chart of a workbook as a PNG with headless LibreOffice (Debian's /usr/bin/python3, python3-uno).

Usage: export_charts.py WORKBOOK OUT_DIR PIPE_NAME. soffice must already listen on the pipe (the caller starts it with
its own profile). Prints one JSON object: {"charts": [{"sheet": NAME, "index": N, "file": PATH}], "error"?: str}.
Charts are OLE objects on each sheet's draw page; each is exported with GraphicExportFilter. Macros never run.
"""
import json
import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

CHART_CLSID = "12DCAE26-281F-416F-A234-C3086127382E"


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def connect(pipe_name, timeout_s=60):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            ctx = resolver.resolve(url)
            return ctx, ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception as err:
            if time.monotonic() > deadline:
                raise RuntimeError("could not connect to soffice: %s" % err)
            time.sleep(0.1)


def is_chart(shape):
    try:
        return shape.getShapeType() == "com.sun.star.drawing.OLE2Shape" and shape.CLSID.upper() == CHART_CLSID
    except Exception:
        return False


def main():
    workbook, out_dir, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
    ctx, desktop = connect(pipe)
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(workbook)), "_blank", 0,
                                       props(Hidden=True, ReadOnly=True, MacroExecutionMode=0, UpdateDocMode=0))
    if doc is None:
        raise RuntimeError("LibreOffice could not load %s" % workbook)
    charts = []
    try:
        sheets = doc.getSheets()
        for s in range(sheets.getCount()):
            sheet = sheets.getByIndex(s)
            page = sheet.getDrawPage()
            n = 0
            for i in range(page.getCount()):
                shape = page.getByIndex(i)
                if not is_chart(shape):
                    continue
                n += 1
                target = os.path.join(out_dir, "chart-%d-%d.png" % (s + 1, n))
                exporter = ctx.ServiceManager.createInstanceWithContext("com.sun.star.drawing.GraphicExportFilter", ctx)
                exporter.setSourceDocument(shape)
                exporter.filter(props(URL=uno.systemPathToFileUrl(target), MediaType="image/png"))
                charts.append({"sheet": sheet.getName(), "index": n, "file": target})
    finally:
        doc.close(True)
    json.dump({"charts": charts}, sys.stdout)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:
        json.dump({"charts": [], "error": "%s: %s" % (type(err).__name__, getattr(err, "Message", None) or err)}, sys.stdout)
        sys.exit(1)
