#!/usr/bin/python3
"""UNO bridge between Node and one running headless soffice.

Run with Debian's /usr/bin/python3 (it has python3-uno). Usage: lo_bridge.py PIPE_NAME CONNECT_TIMEOUT_S

Protocol: JSON lines. Once connected it prints {"ready": true} (or {"ready": false, "error": ...} and exits 1).
Then, per request line {"id": N, "input": PATH, "output": PATH}, it loads the input hidden and read-only,
runs calculateAll(), stores it as xlsx to the output path, closes it, and prints {"id": N, "ok": bool, "error"?: str}.
One request at a time: soffice deadlocks when one instance serves two conversions at once.
"""
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

XLSX_FILTER = "Calc MS Excel 2007 XML"
SPREADSHEET_SERVICE = "com.sun.star.sheet.SpreadsheetDocument"
NEVER_EXECUTE = 0  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0  # com.sun.star.document.UpdateDocMode.NO_UPDATE


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def connect(pipe_name, timeout_s):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            ctx = resolver.resolve(url)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception as err:  # NoConnectException until soffice listens
            if time.monotonic() > deadline:
                raise RuntimeError("could not connect to soffice pipe %s: %s" % (pipe_name, err))
            time.sleep(0.05)


def describe(err):
    message = getattr(err, "Message", None) or str(err)
    return "%s: %s" % (type(err).__name__, message.strip() or "(no message)")


def recalc(desktop, input_path, output_path):
    # Never run macros or update links: the workbooks come from untrusted agents.
    load_props = props(Hidden=True, ReadOnly=True, MacroExecutionMode=NEVER_EXECUTE, UpdateDocMode=NO_UPDATE)
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(input_path), "_blank", 0, load_props)
    except Exception as err:
        raise RuntimeError("load failed: %s" % describe(err))
    if doc is None:
        raise RuntimeError("load failed: soffice returned no document")
    try:
        if not doc.supportsService(SPREADSHEET_SERVICE):
            raise RuntimeError("load failed: the file did not open as a spreadsheet")
        doc.calculateAll()
        doc.storeToURL(uno.systemPathToFileUrl(output_path), props(FilterName=XLSX_FILTER, Overwrite=True))
    finally:
        try:
            doc.close(True)
        except Exception:
            doc.dispose()


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(desktop):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            req_id = req["id"]
        except Exception as err:
            reply({"id": None, "ok": False, "error": "bad request: %s" % err})
            continue
        try:
            recalc(desktop, req["input"], req["output"])
            reply({"id": req_id, "ok": True})
        except Exception as err:
            # A DisposedException here means soffice died; Node sees its exit and restarts it.
            text = str(err) if isinstance(err, RuntimeError) else describe(err)
            reply({"id": req_id, "ok": False, "error": text})


def main():
    pipe_name = sys.argv[1]
    timeout_s = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    try:
        desktop = connect(pipe_name, timeout_s)
    except Exception as err:
        reply({"ready": False, "error": str(err)})
        sys.exit(1)
    reply({"ready": True})
    serve(desktop)
    # stdin closed: Node stopped us or died. Take soffice down too, so no instance outlives its owner.
    try:
        desktop.terminate()
    except Exception:
        pass


if __name__ == "__main__":
    main()
