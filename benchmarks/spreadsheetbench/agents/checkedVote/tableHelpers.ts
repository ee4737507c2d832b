/**
 * Table helpers bound in the frame (checked-vote-v8.2), for the table operations small models fail to write with
 * openpyxl (sort, filter, split, reshape: v7.2's 1.5B called .sort() on ws["A1:F37"], a tuple of cell tuples, in three
 * of three candidates): a rectangle of cells read as a list of rows of values, a list of rows written back from a
 * top-left cell, and a rectangle cleared. Whole columns ("A:F") run to the sheet's last row; merged cells other than a
 * merge's top-left one are skipped when writing, as Excel keeps them.
 */
export const TABLE_HELPERS_PYTHON = `
from openpyxl.utils.cell import coordinate_to_tuple as _coordinate_to_tuple, range_boundaries as _range_boundaries
from openpyxl.cell.cell import MergedCell as _MergedCell

def _bounds(ws, area):
    min_col, min_row, max_col, max_row = _range_boundaries(area)
    return min_col or 1, min_row or 1, max_col or ws.max_column, max_row or ws.max_row

def read_table(ws, area):
    """The values of a rectangle of cells ("A2:F37"), one list per row: [[v, v, ...], ...]."""
    min_col, min_row, max_col, max_row = _bounds(ws, area)
    return [[ws.cell(row=r, column=c).value for c in range(min_col, max_col + 1)] for r in range(min_row, max_row + 1)]

def write_table(ws, top_left, rows):
    """Writes a list of rows of values with its first value at top_left ("A2")."""
    row0, col0 = _coordinate_to_tuple(top_left)
    for i, values in enumerate(rows):
        for j, value in enumerate(values):
            cell = ws.cell(row=row0 + i, column=col0 + j)
            if not isinstance(cell, _MergedCell):
                cell.value = value

def clear_range(ws, area):
    """Empties every cell of a rectangle ("A2:F37")."""
    min_col, min_row, max_col, max_row = _bounds(ws, area)
    for r in range(min_row, max_row + 1):
        for c in range(min_col, max_col + 1):
            cell = ws.cell(row=r, column=c)
            if not isinstance(cell, _MergedCell):
                cell.value = None
`;

/** The names the frame binds for the model's code. */
export const TABLE_HELPER_NAMES = ['read_table', 'write_table', 'clear_range'];
