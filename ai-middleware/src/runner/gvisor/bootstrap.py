# One gVisor sandbox's Python (issue 19): imports pandas & co., says it is ready, runs ONE
# job read from stdin, writes its outcome to stdout and exits. The parent
# (gvisor-sandbox.ts) destroys the sandbox after the job: nothing is shared between jobs.
#
# Protocol (the same as the Pyodide child's, child-message.schema.ts): one JSON line each,
# with "tessera": 1 — {type: 'ready'} once warm; {type: 'done', output, truncated,
# result?, error?, figures?, figures_omitted?} after the job. stdin carries one line:
# {code, headers, rows, sheet_name}, or {code, headers, columns} when the code names no row variable. argv: the output cap in characters, then the figures'
# count cap, bytes cap and longest side in pixels (the parent checks each figure again).
# A sandbox restored from the service's image (gvisor-image.ts: this Python checkpointed right
# after its 'ready') first gets the line {"wake":1} and says ready again, now that it runs.
import ast, base64, builtins, datetime, decimal, fractions, gc, io, json, linecache, math, os, random, re, sys, traceback

import numpy as np
import pandas as pd

OUTPUT_CAP = int(sys.argv[1])
MAX_FIGURES, FIGURE_MAX_BYTES, FIGURE_MAX_SIDE = (int(a) for a in sys.argv[2:5])
# The protocol's own copy of stdout: user code that writes to fd 1 can only garble its own job.
_proto = os.fdopen(os.dup(1), 'w', encoding='utf-8')


def send(message):
    _proto.write(json.dumps({'tessera': 1, **message}, allow_nan=False) + '\n')
    _proto.flush()


class Collector:
    """What user code prints (stdout and stderr, interleaved), kept up to the cap."""

    def __init__(self):
        self.parts, self.size, self.truncated = [], 0, False

    def write(self, text):
        if not isinstance(text, str):
            text = str(text)
        if not self.truncated:
            room = OUTPUT_CAP - self.size
            if len(text) > room:
                text, self.truncated = text[:room], True
            self.parts.append(text)
            self.size += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def text(self):
        return ''.join(self.parts)


NUMBER = re.compile(r'^\s*[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?\s*$')


def number_column(values):
    """A column whose filled cells are all numbers (or numbers as text, "1,200") as floats, else None."""
    seen = False
    for v in values:
        if v is None or v == '':
            continue
        if isinstance(v, bool):
            return None
        if isinstance(v, (int, float)):
            seen = True
            continue
        if not isinstance(v, str) or not NUMBER.match(v) or not re.search(r'\d', v):
            return None
        seen = True
    if not seen:
        return None
    return pd.to_numeric(pd.Series([None if v is None or v == '' else float(v.replace(',', '')) if isinstance(v, str) else v for v in values], dtype='float64'))


def column_array(values):
    """One column's cells as the array pandas would infer for them from the sheet's rows (int64,
    float64 with NaN for blanks between numbers, bool, else object), without pandas' per-cell
    inference where the cells' Python types already say it: that inference is most of the time a
    100,000-row sheet takes to become `df`."""
    kinds = set(map(type, values))
    if kinds == {int}:
        try:
            return np.array(values, dtype=np.int64)
        except OverflowError:  # beyond int64: pandas' own inference decides
            pass
    elif kinds and kinds <= {int, float, type(None)} and kinds != {type(None)}:
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    elif kinds == {bool}:
        return np.array(values, dtype=bool)
    elif not kinds or kinds <= {str, type(None)}:
        return np.array(values, dtype=object)
    return pd.Series(values, dtype=None if values else object).values


def frame_of(headers, columns):
    """The sheet as a DataFrame from its columns: headers as columns, numbers as numbers, and a column
    of numbers written as text (or numbers with blanks) numeric."""
    data = {}
    for i, values in enumerate(columns):
        array = column_array(values)
        if array.dtype == object:
            numeric = number_column(values)
            if numeric is not None:
                array = numeric.values
        data[i] = array
    df = pd.DataFrame(data, columns=range(len(headers)), copy=False)
    df.columns = headers
    return df


def columns_of(width, rows):
    """The first `width` cells of each row as columns (a short row's missing cells are None)."""
    if not rows:
        return [[] for _ in range(width)]
    padded = (r if len(r) == width else list(r[:width]) + [None] * (width - len(r)) for r in rows)
    return [list(c) for c in zip(*padded)]


def jsonable(value, depth=0):
    if depth > 64:
        return str(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.generic):
        value = value.item()
        if not isinstance(value, (int, float, bool, str)):
            return jsonable(value, depth + 1)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**53 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is pd.NaT:
        return None
    if isinstance(value, pd.Series):
        value = value.to_frame()
    if isinstance(value, pd.DataFrame):
        return table_of(value, depth)
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist(), depth + 1)
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, (datetime.date, datetime.time, pd.Timestamp)):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, fractions.Fraction)):
        return float(value)
    try:
        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return str(value)


def table_of(df, depth):
    """A DataFrame as {headers, rows} in its column order. A meaningful index (a groupby's keys, any
    named or non-numeric one) becomes columns; the row numbers left after a sort or a filter do not."""
    named = any(name is not None for name in df.index.names)
    if named or not (isinstance(df.index, pd.RangeIndex) or pd.api.types.is_integer_dtype(df.index.dtype)):
        df = df.reset_index()
    if isinstance(df.columns, pd.MultiIndex):
        headers = [' '.join(str(p) for p in c if str(p)) for c in df.columns]
    else:
        headers = [str(c) for c in df.columns]
    rows = [[jsonable(v, depth + 1) for v in row] for row in df.itertuples(index=False, name=None)]
    return {'headers': headers, 'rows': rows}


class Figures:
    """The job's Matplotlib figures as PNGs, in the order the code made them: each plt.show(), then
    the figures still open at the end, then a Figure (or Axes, or seaborn grid) given as `result`.
    Past the count or bytes cap a figure is left out and counted."""

    def __init__(self, plt, figure_type):
        self.plt, self.figure_type = plt, figure_type
        self.pngs, self.omitted = [], 0

    def figure_of(self, value):
        """The Figure a value is or belongs to (Axes, seaborn's FacetGrid...), else None."""
        if isinstance(value, self.figure_type):
            return value
        try:
            fig = getattr(value, 'figure', None)
        except Exception:  # noqa: BLE001 - a user object's property may raise anything
            return None
        return fig if isinstance(fig, self.figure_type) else None

    def capture(self, fig):
        # Marked on the figure itself, not remembered by id(): a figure closed by plt.show() may be
        # freed, and the next one can get its id — it was then skipped, neither drawn nor counted.
        if getattr(fig, '_tessera_captured', False):
            return
        fig._tessera_captured = True
        if len(self.pngs) >= MAX_FIGURES:
            self.omitted += 1
            return
        width, height = fig.get_size_inches()
        dpi = min(100.0, FIGURE_MAX_SIDE / max(width, height, 0.01))
        buffer = io.BytesIO()
        fig.savefig(buffer, format='png', dpi=dpi)
        png = buffer.getvalue()
        if len(png) > FIGURE_MAX_BYTES:
            self.omitted += 1
        else:
            self.pngs.append(base64.b64encode(png).decode('ascii'))

    def show(self, *args, **kwargs):
        """plt.show() in a sandbox: the open figures become PNGs, in order, and are closed."""
        for number in self.plt.get_fignums():
            self.capture(self.plt.figure(number))
            self.plt.close(number)

    def collect(self, result):
        """The figures still open, and the result's own; returns the result, None if it was a figure."""
        self.show()
        fig = self.figure_of(result)
        if fig is None:
            return result
        self.capture(fig)
        return None


def user_traceback(e):
    """The traceback trimmed to the user's code: its own frames and the error, no runner or library frames."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == '<code>']
    lines = traceback.format_exception_only(type(e), e)
    if not frames:
        return ''.join(lines)
    return 'Traceback (most recent call last):\n' + ''.join(traceback.format_list(frames)) + ''.join(lines)


def run(job):
    """Runs one job. The sheet comes as `columns` when the code names none of rows, records and sheet
    (the service looks), else as `rows`; only what the code can use is built."""
    headers = [str(h) for h in job.get('headers', [])]
    width = len(headers)
    ns = {'__name__': '__main__', 'headers': headers, 'pd': pd, 'np': np}
    if 'columns' in job:
        ns['df'] = frame_of(headers, job['columns'])
    else:
        rows = job.get('rows', [])
        ns['rows'] = rows
        ns['records'] = [dict(zip(headers, list(r[:width]) + [None] * (width - len(r)))) for r in rows]
        ns['sheet'] = {'name': job.get('sheet_name'), 'headers': headers, 'rows': rows}
        ns['df'] = frame_of(headers, columns_of(width, rows))
    # The sheet's objects are never garbage: out of the collector's sight, user code that makes many
    # objects does not rescan a million cells at each collection.
    gc.freeze()
    gc.enable()
    # A DataFrame (or Series) printed on its own is remembered: with no `result`, the last one is the grid.
    printed = []

    def print_(*args, **kwargs):
        if len(args) == 1 and isinstance(args[0], (pd.DataFrame, pd.Series)) and kwargs.get('file') in (None, sys.stdout):
            printed[:] = [args[0]]
        return builtins.print(*args, **kwargs)

    ns['print'] = print_
    code = job['code']
    linecache.cache['<code>'] = (len(code), None, code.splitlines(True), '<code>')
    tree = ast.parse(code, '<code>', 'exec')
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, '<code>', 'exec'), ns)
    value = eval(compile(last, '<code>', 'eval'), ns) if last is not None else None
    if 'result' in ns:
        return ns['result']
    return value if value is not None or not printed else printed[0]


WAKE = b'{"wake":1}\n'


def reseed():
    """Fresh seeds from the OS for the generators user code reaches without seeding them itself: a
    sandbox restored from the image would otherwise draw what every other one restored from it
    draws (the image holds their state). str hashes keep the image's seed: it is fixed at start."""
    random.seed()
    np.random.seed()
    tempfile = sys.modules.get('tempfile')
    if tempfile is not None:
        tempfile._name_sequence = None  # its own Random, made at first use, reseeded only on a new PID


def main():
    import matplotlib

    matplotlib.use('Agg')
    import matplotlib.figure
    import matplotlib.pyplot as plt

    # Warm-up through the same path before saying ready: the first groupby pays for lazy imports.
    run({'code': "result = df.groupby('a').sum()", 'headers': ['a', 'b'], 'rows': [['x', 1]]})
    run({'code': "result = df.groupby('a').sum()", 'headers': ['a', 'b'], 'columns': [['x'], [1]]})
    # ...and the first figure for loading its fonts and renderer.
    warm = plt.figure(figsize=(1, 1))
    warm.gca().plot([0, 1])
    warm.savefig(io.BytesIO(), format='png', dpi=10)
    plt.close(warm)
    # From here on a crash of the bootstrap itself is not reported: fds 1 and 2 only carry what
    # user code (or a process it starts) writes there directly, which nobody reads.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    send({'type': 'ready'})
    line = sys.stdin.buffer.readline()
    if line == WAKE:
        send({'type': 'ready'})
        line = sys.stdin.buffer.readline()
    reseed()
    collector = Collector()
    sys.stdout = sys.stderr = collector
    figures = Figures(plt, matplotlib.figure.Figure)
    plt.show = figures.show
    outcome = {}
    try:
        # Reading the job makes a million objects at most and no garbage: no collections meanwhile.
        gc.disable()
        job = json.loads(line)
        value = figures.collect(run(job))
        outcome = {'result': jsonable(value)}
        if figures.pngs:
            outcome['figures'] = figures.pngs
        if figures.omitted:
            outcome['figures_omitted'] = figures.omitted
    except BaseException as e:  # noqa: B036 - everything the code raises is the job's error
        kind = 'memory' if isinstance(e, MemoryError) else 'python'
        outcome = {'error': {'kind': kind, 'message': user_traceback(e)}}
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    try:
        send({'type': 'done', 'output': collector.text(), 'truncated': collector.truncated, **outcome})
    except MemoryError:
        send({'type': 'done', 'output': '', 'truncated': False, 'error': {'kind': 'memory', 'message': 'MemoryError'}})
    sys.stdout.flush()
    os._exit(0)


main()
