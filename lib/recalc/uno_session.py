"""What every UNO script of this folder shares (Debian's /usr/bin/python3, python3-uno): the property tuples UNO calls
take, the connection to a soffice listening on a pipe, and loading an untrusted workbook hidden and read-only with
macros and links never run. lo_bridge.py (recalculation) and lo_charts.py (chart export) import it from beside them.
"""
import time

import uno
from com.sun.star.beans import PropertyValue

SPREADSHEET_SERVICE = "com.sun.star.sheet.SpreadsheetDocument"
NEVER_EXECUTE = 0  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0  # com.sun.star.document.UpdateDocMode.NO_UPDATE
XLSX_FILTER = "Calc MS Excel 2007 XML"


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def connect(pipe_name, timeout_s):
    """The component context of the soffice listening on `pipe_name`, waiting until it listens (at most timeout_s)."""
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return resolver.resolve(url)
        except Exception as err:  # NoConnectException until soffice listens
            if time.monotonic() > deadline:
                raise RuntimeError("could not connect to soffice pipe %s: %s" % (pipe_name, err))
            time.sleep(0.05)


def desktop_of(ctx):
    return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)


def describe(err):
    message = getattr(err, "Message", None) or str(err)
    return "%s: %s" % (type(err).__name__, message.strip() or "(no message)")


def load_spreadsheet(desktop, path):
    """The workbook at `path`, hidden and read-only; macros never run, links never update (agents wrote it)."""
    load_props = props(Hidden=True, ReadOnly=True, MacroExecutionMode=NEVER_EXECUTE, UpdateDocMode=NO_UPDATE)
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0, load_props)
    except Exception as err:
        raise RuntimeError("load failed: %s" % describe(err))
    if doc is None:
        raise RuntimeError("load failed: soffice returned no document")
    if not doc.supportsService(SPREADSHEET_SERVICE):
        close(doc)
        raise RuntimeError("load failed: the file did not open as a spreadsheet")
    return doc


def load_xlsx_model(service_manager, ctx, path):
    """The .xlsx at `path` as a bare spreadsheet model: no frame, window or view is made (they cost about a fifth of a
    load); read-only, macros never run, links never update. Raises RuntimeError when the file does not load as .xlsx.
    `service_manager` is ctx.ServiceManager, read once: reading it on a dead connection raises an
    UnknownPropertyException that does not say the connection is gone."""
    doc = service_manager.createInstanceWithContext("com.sun.star.sheet.SpreadsheetDocument", ctx)
    load_props = props(
        URL=uno.systemPathToFileUrl(path),
        FilterName=XLSX_FILTER,
        ReadOnly=True,
        MacroExecutionMode=NEVER_EXECUTE,
        UpdateDocMode=NO_UPDATE,
    )
    try:
        doc.load(load_props)
    except Exception as err:
        close(doc)
        raise RuntimeError("load failed: %s" % describe(err))
    return doc


def close(doc):
    try:
        doc.close(True)
    except Exception:
        doc.dispose()
