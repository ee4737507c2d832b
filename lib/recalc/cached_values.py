"""LibreOffice's formula results written into a copy of the input workbook, instead of LibreOffice storing the whole
workbook again (its xlsx export costs more than the load: per row it walks all 16,384 columns).

formula_results(doc, workbook) reads every formula cell's result from the loaded, recalculated document in a few UNO
calls per formula range; Workbook.write() copies the input .xlsx and replaces, in each formula cell, its cached value and
type only: everything else stays byte for byte. The cell is written as LibreOffice's own export writes it
(sc/source/filter/excel: numbers rounded to 15 significant digits, t="b" for a boolean result, t="str" for text,
t="e" with Excel's error text).

Conservative: anything this cannot write exactly as LibreOffice's store would raise NotWritable, and the caller stores
the document through LibreOffice as before. Among those: a formula cell LibreOffice did not read as one, a formula
result absent from the file (an array formula's other cells written without a <c>), a result LibreOffice gives a date
or time format the file's cell does not have (it formats such cells on export: a General cell showing =DATE(...)),
an error code or a text this does not know how LibreOffice writes, a macro-enabled or unusual package.
"""
import re
import zipfile
import xml.etree.ElementTree as ET
from posixpath import join, normpath

FORMULA_CELLS = 16  # com.sun.star.sheet.CellFlags.FORMULA
ERROR_RESULTS = 4  # com.sun.star.sheet.FormulaResult.ERROR
DATE_OR_TIME = 2 | 4  # com.sun.star.util.NumberFormat.DATE | TIME (DATETIME = both)
LOGICAL = 1024  # com.sun.star.util.NumberFormat.LOGICAL
AMBIGUOUS = "AMBIGUOUS_VALUE"  # com.sun.star.beans.PropertyState
DEFAULT = "DEFAULT_VALUE"  # the default number format: General
STANDARD_FORMATS_OFFSET = 10000  # SV_COUNTRY_LANGUAGE_OFFSET: each language's General format is a multiple of it
MAX_FORMAT_GROUPS = 64  # per formula range with mixed formats: more and storing is cheaper than asking
MAX_ERROR_CELLS = 64  # each costs two UNO calls

# LibreOffice error codes (formula/errorcodes.hxx) as its xlsx export writes them (XclTools::GetXclErrorCode);
# only codes checked against its export: any other goes through LibreOffice's store.
ERROR_TEXTS = {
    502: "#VALUE!",  # IllegalArgument
    503: "#NUM!",  # IllegalFPOperation
    504: "#VALUE!",  # IllegalParameter
    519: "#VALUE!",  # NoValue
    521: "#NULL!",  # NoCode
    522: "#VALUE!",  # CircularReference
    524: "#REF!",  # NoRef
    525: "#NAME?",  # NoName
    532: "#DIV/0!",  # DivisionByZero
    32767: "#N/A",  # NotAvailable
}

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
WORKBOOK_TYPE = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"

CELL = re.compile(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", re.S)
REF = re.compile(rb'\br="([A-Z]{1,3})([0-9]{1,7})"')
STYLE = re.compile(rb'\bs="([0-9]+)"')
TYPE_ATTR = re.compile(rb'\s+t="[^"]*"')
FORMULA = re.compile(rb"<f\b[^>]*?/>|<f\b[^>]*>.*?</f>", re.S)
VALUE_OR_TEXT = re.compile(rb"<v\b[^>]*?/>|<v\b[^>]*>.*?</v>|<is\b[^>]*>.*?</is>", re.S)
# Characters LibreOffice's XML writer escapes in ways not checked here (_xHHHH_ and control characters).
UNSURE_TEXT = re.compile("_x[0-9A-Fa-f]{4}_|[\x00-\x08\x0b-\x1f\ufffe\uffff]")

# openpyxl's date detection (styles/numbers.py), as benchmarks/workbook/excelDates.ts reproduces it.
BUILTIN_DATE_IDS = {14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47}
STRIP_FORMAT = re.compile(r'".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]')
DATE_CHAR = re.compile(r"(?<![_\\])[dmhysDMHYS]")


class NotWritable(Exception):
    """The results cannot be written into the file exactly as LibreOffice's store would: store instead."""


def formula_results(doc, workbook):
    """{sheet name: {(column, row): (t, text, is_date)}} for every formula cell, 0-based positions. Only the sheets
    whose XML holds a formula are asked (a formula LibreOffice reads comes from an <f> element)."""
    sheets = doc.Sheets
    if tuple(sheets.ElementNames) != tuple(workbook.sheet_names):
        raise NotWritable("LibreOffice names the sheets otherwise than the file")  # it renames some ('a name')
    formats = NumberFormatKinds(doc)
    out = {}
    for name in workbook.formula_sheets():
        sheet = sheets.getByName(name)
        ranges = sheet.queryContentCells(FORMULA_CELLS)
        addresses = ranges.getRangeAddresses()
        out[name] = sheet_results(sheet, ranges, addresses, formats) if addresses else {}
    return out


def sheet_results(sheet, ranges, addresses, formats):
    # One format for every formula cell of the sheet (the usual case): asked once, not per range.
    sheet_kind = formats.uniform_kind(ranges)
    values = {}
    kinds = []
    for a in addresses:
        cell_range = sheet.getCellRangeByPosition(a.StartColumn, a.StartRow, a.EndColumn, a.EndRow)
        kinds.append(formats.kinds_in(cell_range) if sheet_kind is None else lambda pos: sheet_kind)
        for dr, row in enumerate(cell_range.getDataArray()):
            for dc, value in enumerate(row):
                values[(a.StartColumn + dc, a.StartRow + dr)] = value
    errors = error_codes(sheet, ranges) if any(v is None for v in values.values()) else {}
    cells = {}
    for a, kind_at in zip(addresses, kinds):
        for col in range(a.StartColumn, a.EndColumn + 1):
            for row in range(a.StartRow, a.EndRow + 1):
                pos = (col, row)
                cells[pos] = cell_result(values[pos], kind_at(pos), errors.get(pos))
    return cells


def error_codes(sheet, formula_ranges):
    """{(column, row): LibreOffice error code} of the formula cells whose result is an error."""
    codes = {}
    for a in formula_ranges.queryFormulaCells(ERROR_RESULTS).getRangeAddresses():
        count = (a.EndColumn - a.StartColumn + 1) * (a.EndRow - a.StartRow + 1)
        if len(codes) + count > MAX_ERROR_CELLS:
            raise NotWritable("more than %d error results" % MAX_ERROR_CELLS)
        for col in range(a.StartColumn, a.EndColumn + 1):
            for row in range(a.StartRow, a.EndRow + 1):
                codes[(col, row)] = sheet.getCellByPosition(col, row).getError()
    return codes


class NumberFormatKinds:
    """The kind of a cell's number format in one document: 'date' (date, time or both), 'logical' or 'other'."""

    def __init__(self, doc):
        self.doc = doc
        self.formats = None
        self.kinds = {}

    def uniform_kind(self, cells):
        """The kind shared by all `cells` (a range or ranges), or None when their formats differ."""
        state = cells.getPropertyState("NumberFormat").value
        if state == AMBIGUOUS:
            return None
        return "other" if state == DEFAULT else self.kind(cells.NumberFormat)

    def kinds_in(self, cell_range):
        """A function (column, row) -> kind for the cells of one range."""
        kind = self.uniform_kind(cell_range)
        if kind is not None:
            return lambda pos: kind
        groups = cell_range.getUniqueCellFormatRanges()
        if groups.Count > MAX_FORMAT_GROUPS:
            raise NotWritable("formula cells in more than %d formats" % MAX_FORMAT_GROUPS)
        by_cell = {}
        for i in range(groups.Count):
            group = groups.getByIndex(i)
            kind = self.kind(group.NumberFormat)
            if kind == "other":
                continue
            for a in group.getRangeAddresses():
                for col in range(a.StartColumn, a.EndColumn + 1):
                    for row in range(a.StartRow, a.EndRow + 1):
                        by_cell[(col, row)] = kind
        return lambda pos: by_cell.get(pos, "other")

    def kind(self, key):
        if key % STANDARD_FORMATS_OFFSET == 0:
            return "other"  # General, in any language: neither a date nor a boolean
        if key not in self.kinds:
            if self.formats is None:
                self.formats = self.doc.NumberFormats
            format_type = self.formats.getByKey(key).Type
            self.kinds[key] = "date" if format_type & DATE_OR_TIME else "logical" if format_type & LOGICAL else "other"
        return self.kinds[key]


def cell_result(value, kind, error):
    """(t, text, is_date) of one formula cell as LibreOffice's xlsx export writes it."""
    if value is None:  # getDataArray gives no value for an error result
        if error not in ERROR_TEXTS:
            raise NotWritable("error code %s" % error)
        return ("e", ERROR_TEXTS[error], False)
    if isinstance(value, str):
        if UNSURE_TEXT.search(value) or "\r" in value:
            raise NotWritable("a text result with characters LibreOffice escapes")
        return ("str", value, False)
    if kind == "logical":
        if value not in (0.0, 1.0):
            raise NotWritable("a boolean format on a result other than 0 or 1")
        return ("b", "1" if value else "0", False)
    return ("n", number_text(value), kind == "date")


def number_text(value):
    """LibreOffice writes results rounded to 15 significant digits (0.1+0.2 as 0.3); the same double is read back."""
    return "%.15g" % value


class Workbook:
    """The input .xlsx package: its sheet names in order, its worksheet parts, read as they are needed."""

    def __init__(self, path):
        self.package = zipfile.ZipFile(path)
        try:
            if WORKBOOK_TYPE not in self.package.read("[Content_Types].xml"):
                raise NotWritable("not a plain .xlsx package (macro-enabled, template or other)")
            self.sheet_names, self.parts = sheets_of(self.package)
        except BaseException:
            self.package.close()
            raise
        self.xml = {}

    def close(self):
        self.package.close()

    def sheet_xml(self, name):
        if name not in self.xml:
            self.xml[name] = self.package.read(self.parts[name])
        return self.xml[name]

    def formula_sheets(self):
        """The worksheets whose XML holds a formula element."""
        return [name for name in self.parts if FORMULA.search(self.sheet_xml(name))]

    def write(self, output_path, results):
        """Copies the package to output_path with each formula cell's cached value replaced by its result."""
        date_styles = date_style_ids(self.package)
        patched = {}
        for name in self.formula_sheets():
            patched[self.parts[name]] = patch_sheet(self.sheet_xml(name), results.get(name, {}), date_styles)
        with zipfile.ZipFile(output_path, "w", zipfile.ZIP_DEFLATED) as out:
            for info in self.package.infolist():
                # Level 1: the file is read once by the scorer; compressing harder costs more than it saves.
                out.writestr(info, patched.get(info.filename) or self.package.read(info), compresslevel=1)


def sheets_of(package):
    """Every sheet name in workbook order, and {name: part} of the worksheets (chart sheets have no cells)."""
    workbook = ET.fromstring(package.read("xl/workbook.xml"))
    rels = ET.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    targets = {}
    for rel in rels.iter(PKG_REL + "Relationship"):
        if rel.get("Type", "").endswith("/worksheet"):
            target = rel.get("Target", "")
            targets[rel.get("Id")] = target.lstrip("/") if target.startswith("/") else normpath(join("xl", target))
    names = []
    parts = {}
    for sheet in workbook.iter(MAIN + "sheet"):
        names.append(sheet.get("name"))
        part = targets.get(sheet.get(REL + "id"))
        if part:
            parts[sheet.get("name")] = part
    return names, parts


def date_style_ids(package):
    """Indexes into cellXfs whose number format openpyxl reads as a date or time."""
    try:
        styles = ET.fromstring(package.read("xl/styles.xml"))
    except KeyError:
        return set()
    custom = {int(f.get("numFmtId")): f.get("formatCode", "") for f in styles.iter(MAIN + "numFmt")}
    cell_xfs = styles.find(MAIN + "cellXfs")
    dates = set()
    for index, xf in enumerate([] if cell_xfs is None else cell_xfs.findall(MAIN + "xf")):
        fmt_id = int(xf.get("numFmtId", "0"))
        if fmt_id in custom:
            if DATE_CHAR.search(STRIP_FORMAT.sub("", custom[fmt_id].split(";")[0])):
                dates.add(index)
        elif fmt_id in BUILTIN_DATE_IDS:
            dates.add(index)
    return dates


def patch_sheet(xml, cells, date_styles):
    """The worksheet XML with each formula cell's type and cached value replaced by its result."""
    if not re.match(rb"(<\?xml[^>]*\?>\s*)?<worksheet\b", xml):
        raise NotWritable("a worksheet written with a namespace prefix")
    seen = set()

    def replace(match):
        attrs, body = match.group(1), match.group(2) or b""
        ref = REF.search(attrs)
        if not ref:
            raise NotWritable("a cell without its address")
        pos = (column_index(ref.group(1)), int(ref.group(2)) - 1)
        result = cells.get(pos)
        if result is None:
            if FORMULA.search(body):
                raise NotWritable("a formula LibreOffice did not read as one")
            return match.group(0)
        seen.add(pos)
        t, text, is_date = result
        style = STYLE.search(attrs)
        styled_as_date = (int(style.group(1)) if style else 0) in date_styles
        if t == "n" and is_date != styled_as_date:
            raise NotWritable("LibreOffice gives a result a date format the cell does not have")
        formula = FORMULA.search(body)
        if VALUE_OR_TEXT.sub(b"", FORMULA.sub(b"", body)).strip():
            raise NotWritable("a formula cell with more than a formula and a value")
        value = escape_text(text).encode("utf-8")
        kept = TYPE_ATTR.sub(b"", attrs)
        return b'<c%s t="%s">%s<v>%s</v></c>' % (kept, t.encode(), formula.group(0) if formula else b"", value)

    patched = CELL.sub(replace, xml)
    if len(seen) != len(cells):
        raise NotWritable("a formula result without its cell in the file (an array formula's other cells)")
    return patched


def column_index(letters):
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n - 1


def escape_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
