/* ddzrules._quick: inner steps of listing a hand's plays that pure Python cannot make
 * cheap, as an optional extension module of the compiled build (docs/compiled.md).
 * Without it, variant.py and wild_table.py do the same in Python.
 *
 * hand_counts(hand, limits) -> bytes | None
 *     A hand (a list or tuple of rank indices) as its counts, a byte a rank; None when an
 *     item is not an int in range(len(limits)) or a rank holds more cards than its limit
 *     (the caller then takes the general path, which says what is wrong).
 *
 * legal_tuple(cls, order, moves) -> cls
 *     The lister's positions as the tuple (of the tuple subclass cls) of moves[i] in
 *     ascending order of i: ``order`` is a list of ints (left as it is), its negative
 *     placeholders left out.
 *
 * append_set_bits(bits, positions, out) -> None
 *     For every bit i set in ``bits`` (an int's bytes, little-endian), lowest first,
 *     appends ``positions[i]`` to the list ``out`` (the wild table's block selection,
 *     wild_table._set_bits). ``positions`` is an array('I') (read through its buffer;
 *     another buffer is refused) or a sequence without a buffer, such as a range.
 *
 * run_steps(program, raw) -> list[int]
 *     A lead or an answer of the lister (lister.MovePlan.lead_program): the positions of
 *     the plays inside the hand whose counts are ``raw`` (15 bytes), sorted, placeholders
 *     left out.
 *     ``program`` is a tuple of steps, each a tuple (code, need, lo, ...): a step is
 *     skipped when no rank holds ``need`` cards (need > 1); ``lo`` is the lowest core rank.
 *       0 (0, need, lo, flat, counts): for each count c (bytes) and rank r >= lo the hand
 *         holds c of, flat[k * 15 + r] (k: the count's index);
 *       1 (1, need, lo, count, rows, units): for each core rank r >= lo held ``count``
 *         times, rows[r] (empty, or 15 positions a kicker unit) picked by the ranks held
 *         at least each unit (bytes) times;
 *       2 (2, need, lo, hi, unit, memo, miss): the chain readings memoised by the mask of
 *         ranks lo..hi-1 held ``unit`` times: memo.get(mask) or miss(mask), a tuple;
 *       3 (3, need, lo, items, readings): ``readings`` when the hand holds every (rank,
 *         count) pair of ``items`` (bytes);
 *       4 (4, need, lo, call): call(raw, out), the lister's own Python for that step;
 *       5 (5, need, lo, hi, unit, memo, miss, kick, more): step 2's memo for chains with
 *         kickers, its value (ones, twos, more): each of ``ones`` picked by the ranks held
 *         ``kick`` times, each (triangle, valid) of ``twos`` by the pairs of kicker groups
 *         held (see pick_pairs), and more(raw, more_cores, out) when there are more;
 *       6 (6, need, lo, count, rows, kick): for each core rank r >= lo held ``count``
 *         times, rows[r] = (triangle, valid) picked by the pairs of kicker groups held.
 *
 * They read only what they are given and check every index, so no input can make them
 * read outside an object: a bad argument raises an exception (TypeError, IndexError,
 * OverflowError, or RuntimeError when a garbage collection changed ``order``).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_RANKS 255

/* tuple.__new__, looked up once */
static PyObject *tuple_new = NULL;
/* the deallocator of classes defined in Python (subtype_dealloc), read once from one */
static destructor python_class_dealloc = NULL;

/* the index of the lowest set bit of a nonzero byte */
static inline int
lowest_bit(unsigned int x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

static PyObject *
hand_counts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "hand_counts(hand, limits) takes 2 arguments");
        return NULL;
    }
    PyObject *hand = args[0], *limits = args[1];
    if (!PyBytes_CheckExact(limits) || PyBytes_GET_SIZE(limits) > MAX_RANKS) {
        PyErr_SetString(PyExc_TypeError, "hand_counts: limits must be bytes of at most 255 ranks");
        return NULL;
    }
    PyObject **items;
    Py_ssize_t n;
    if (PyList_Check(hand)) {  /* a list, or a subclass such as cards.Ranks: its items as stored */
        items = PySequence_Fast_ITEMS(hand);
        n = PyList_GET_SIZE(hand);
    } else if (PyTuple_CheckExact(hand)) {
        items = PySequence_Fast_ITEMS(hand);
        n = PyTuple_GET_SIZE(hand);
    } else {
        Py_RETURN_NONE;
    }
    const unsigned char *limit = (const unsigned char *)PyBytes_AS_STRING(limits);
    Py_ssize_t ranks = PyBytes_GET_SIZE(limits);
    unsigned char counts[MAX_RANKS] = {0};
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = items[i];
        if (!PyLong_CheckExact(item)) {
            Py_RETURN_NONE;
        }
        int overflow = 0;
        long rank = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || rank < 0 || rank >= ranks) {
            Py_RETURN_NONE;
        }
        if (counts[rank] >= limit[rank]) {
            Py_RETURN_NONE;
        }
        counts[rank]++;
    }
    return PyBytes_FromStringAndSize((const char *)counts, ranks);
}

/* positions found, with the int objects that hold them (a reference each) */
typedef struct {
    long value;
    PyObject *item;
} Found;

#define FOUND_ON_STACK 256

typedef struct {
    Found *at;
    Py_ssize_t n, cap;
    Found stack[FOUND_ON_STACK];
} Positions;

static void
positions_init(Positions *p)
{
    p->at = p->stack;
    p->n = 0;
    p->cap = FOUND_ON_STACK;
}

static void
positions_free(Positions *p)
{
    for (Py_ssize_t i = 0; i < p->n; i++) {
        Py_XDECREF(p->at[i].item);
    }
    if (p->at != p->stack) {
        PyMem_Free(p->at);
    }
    p->at = p->stack;
    p->n = 0;
}

static int
positions_push(Positions *p, long value, PyObject *item)
{
    if (p->n == p->cap) {
        if (p->cap > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Found) / 2) {
            PyErr_NoMemory();
            return -1;
        }
        Found *grown = PyMem_Malloc(2 * p->cap * sizeof(Found));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(grown, p->at, p->n * sizeof(Found));
        if (p->at != p->stack) {
            PyMem_Free(p->at);
        }
        p->at = grown;
        p->cap *= 2;
    }
    Py_XINCREF(item);
    p->at[p->n].value = value;
    p->at[p->n].item = item;
    p->n++;
    return 0;
}

/* sorts by value, stably: a natural merge sort, since steps find positions in a few
 * long ascending runs (one pass over a sorted array) */
static int
sort_found(Found *a, Py_ssize_t n)
{
    Py_ssize_t i = 1;
    while (i < n && a[i - 1].value <= a[i].value) {
        i++;
    }
    if (i >= n) {
        return 0;
    }
    Found *tmp = PyMem_Malloc(n * sizeof(Found));
    if (tmp == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Found *src = a, *dst = tmp;
    for (;;) {
        Py_ssize_t runs = 0, start = 0;
        while (start < n) {
            Py_ssize_t mid = start + 1, end;
            while (mid < n && src[mid - 1].value <= src[mid].value) {
                mid++;
            }
            end = mid;
            if (mid < n) {
                end = mid + 1;
                while (end < n && src[end - 1].value <= src[end].value) {
                    end++;
                }
            }
            Py_ssize_t p = start, q = mid, k = start;
            while (p < mid && q < end) {
                dst[k++] = src[q].value < src[p].value ? src[q++] : src[p++];
            }
            while (p < mid) {
                dst[k++] = src[p++];
            }
            while (q < end) {
                dst[k++] = src[q++];
            }
            runs++;
            start = end;
        }
        Found *t = src;
        src = dst;
        dst = t;
        if (runs == 1) {
            break;
        }
    }
    if (src != a) {
        memcpy(a, src, n * sizeof(Found));
    }
    PyMem_Free(tmp);
    return 0;
}

/* a new instance of the tuple subclass ``cls`` with ``n`` empty items, made as
 * tuple.__new__ makes one (tuple_subtype_new: tp_alloc, then the items); NULL and no
 * error for a subclass with a layout of its own (a C type such as time.struct_time) */
static PyObject *
alloc_tuple(PyTypeObject *cls, Py_ssize_t n)
{
    if (cls == &PyTuple_Type) {
        return PyTuple_New(n);
    }
    /* only classes defined in Python with no fields of their own (``__slots__ = ()``),
     * down to tuple: a tuple with a class pointer */
    for (PyTypeObject *t = cls; t != &PyTuple_Type; t = t->tp_base) {
        if (t == NULL || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE) || t->tp_dealloc != python_class_dealloc
            || t->tp_alloc != PyType_GenericAlloc || !PyType_IS_GC(t)
            || t->tp_basicsize != PyTuple_Type.tp_basicsize || t->tp_itemsize != PyTuple_Type.tp_itemsize) {
            return NULL;
        }
    }
    return cls->tp_alloc(cls, n);  /* zeroed items, tracked by the collector */
}

static PyObject *
legal_tuple(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal_tuple(cls, order, moves) takes 3 arguments");
        return NULL;
    }
    PyObject *cls = args[0], *order = args[1], *moves = args[2];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "legal_tuple: cls must be a tuple subclass");
        return NULL;
    }
    if (!PyList_CheckExact(order) || !PyTuple_Check(moves)) {
        PyErr_SetString(PyExc_TypeError, "legal_tuple: order must be a list and moves a tuple");
        return NULL;
    }
    /* the positions read once into C (an allocation below may run the garbage
     * collector, and so any code, which could change the list) */
    Py_ssize_t n = PyList_GET_SIZE(order), size = PyTuple_GET_SIZE(moves);
    Positions found;
    positions_init(&found);
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(order, i);
        if (!PyLong_CheckExact(item)) {
            PyErr_SetString(PyExc_TypeError, "legal_tuple: order must hold ints");
            goto done;
        }
        Py_ssize_t index = PyLong_AsSsize_t(item);
        if (index == -1 && PyErr_Occurred()) {
            goto done;
        }
        if (index >= size) {
            PyErr_SetString(PyExc_IndexError, "legal_tuple: a position outside moves");
            goto done;
        }
        /* placeholders (negative) are left out */
        if (index >= 0 && positions_push(&found, (long)index, NULL) < 0) {
            goto done;
        }
    }
    if (sort_found(found.at, found.n) < 0) {
        goto done;
    }
    result = alloc_tuple((PyTypeObject *)cls, found.n);
    if (result == NULL) {
        if (PyErr_Occurred()) {
            goto done;
        }
        /* a subclass tuple.__new__ knows better: the moves as a plain tuple first */
        PyObject *items = alloc_tuple(&PyTuple_Type, found.n);
        if (items == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < found.n; i++) {
            PyObject *move = PyTuple_GET_ITEM(moves, found.at[i].value);
            Py_INCREF(move);
            PyTuple_SET_ITEM(items, i, move);
        }
        PyObject *call[2] = {cls, items};
        result = PyObject_Vectorcall(tuple_new, call, 2, NULL);
        Py_DECREF(items);
        goto done;
    }
    for (Py_ssize_t i = 0; i < found.n; i++) {
        PyObject *move = PyTuple_GET_ITEM(moves, found.at[i].value);
        Py_INCREF(move);
        PyTuple_SET_ITEM(result, i, move);
    }
done:
    positions_free(&found);
    return result;
}

static PyObject *
append_set_bits(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "append_set_bits(bits, positions, out) takes 3 arguments");
        return NULL;
    }
    PyObject *bits = args[0], *positions = args[1], *out = args[2];
    if (!PyBytes_CheckExact(bits) || !PyList_Check(out)) {
        PyErr_SetString(PyExc_TypeError, "append_set_bits: bits must be bytes and out a list");
        return NULL;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(bits);
    Py_ssize_t nbytes = PyBytes_GET_SIZE(bits);
    /* an array('I') is read through its buffer; any other sequence item by item */
    Py_buffer view;
    const unsigned int *words = NULL;
    Py_ssize_t count;
    int have_view = 0;
    if (PyObject_CheckBuffer(positions)) {
        if (PyObject_GetBuffer(positions, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
            return NULL;
        }
        have_view = 1;
        if (view.itemsize != sizeof(unsigned int) || view.format == NULL || strcmp(view.format, "I") != 0) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_TypeError, "append_set_bits: positions must be an array('I') or a sequence");
            return NULL;
        }
        words = (const unsigned int *)view.buf;
        count = view.len / view.itemsize;
    } else {
        count = PySequence_Length(positions);
        if (count < 0) {
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < nbytes; i++) {
        unsigned int byte = b[i];
        while (byte) {
            int low = lowest_bit(byte);
            byte &= byte - 1;
            /* bit 8 * i + low must be below count; checked without the product, which
             * could overflow a 32-bit Py_ssize_t */
            if (count <= low || i > (count - 1 - low) / 8) {
                PyErr_SetString(PyExc_IndexError, "append_set_bits: a bit beyond positions");
                goto fail;
            }
            Py_ssize_t at = 8 * i + low;
            PyObject *item = words != NULL ? PyLong_FromUnsignedLong(words[at]) : PySequence_GetItem(positions, at);
            if (item == NULL) {
                goto fail;
            }
            int failed = PyList_Append(out, item);
            Py_DECREF(item);
            if (failed < 0) {
                goto fail;
            }
        }
    }
    if (have_view) {
        PyBuffer_Release(&view);
    }
    Py_RETURN_NONE;
fail:
    if (have_view) {
        PyBuffer_Release(&view);
    }
    return NULL;
}

/* ------------------------------------------------------------ run_steps */

#define NUM_RANKS 15  /* ddzrules.cards.NUM_RANKS; the lister asserts it */
#define RANK_MASK 15  /* ddzrules.cards.MASK: the most cards of a rank a count holds */
#define TRIANGLE (NUM_RANKS * (NUM_RANKS + 1) / 2)

/* the counts of a hand as steps read them */
typedef struct {
    const unsigned char *raw;
    int top;  /* the most cards any rank holds */
} Hand;

static int
bad_program(const char *what)
{
    PyErr_Format(PyExc_TypeError, "run_steps: %s", what);
    return -1;
}

/* adds a position; a negative one is a placeholder ("no reading"), left out */
static int
add_position(Positions *out, PyObject *position)
{
    if (!PyLong_CheckExact(position)) {
        return bad_program("a position is not an int");
    }
    long value = PyLong_AsLong(position);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    return value < 0 ? 0 : positions_push(out, value, position);
}

/* appends every position of the tuple ``items`` */
static int
add_all(Positions *out, PyObject *items)
{
    if (!PyTuple_Check(items)) {
        return bad_program("readings must be a tuple");
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++) {
        if (add_position(out, PyTuple_GET_ITEM(items, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* row[offset + q] for each rank q held at least ``unit`` times */
static int
pick_ranks(Positions *out, PyObject *row, Py_ssize_t offset, const Hand *hand, long unit)
{
    if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) < offset + NUM_RANKS) {
        return bad_program("a row must be a tuple of 15 positions a kicker unit");
    }
    for (int q = 0; q < NUM_RANKS; q++) {
        if (hand->raw[q] >= unit && add_position(out, PyTuple_GET_ITEM(row, offset + q)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* the readings of one core with two kicker groups of ``unit`` cards: triangle[cell(q1,
 * q2)] for kicker ranks q1 < q2 both held ``unit`` times, and q1 == q2 held twice that
 * (the lister's _pair_selector); ``pair`` is (triangle, valid), the triangle empty for
 * a core without readings */
static int
pick_pairs(Positions *out, PyObject *pair, const Hand *hand, long unit)
{
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(pair, 0))) {
        return bad_program("a kicker-pair row must be (triangle, valid)");
    }
    PyObject *triangle = PyTuple_GET_ITEM(pair, 0);
    Py_ssize_t cells = PyTuple_GET_SIZE(triangle);
    if (cells == 0) {
        return 0;
    }
    if (cells != TRIANGLE) {
        return bad_program("a triangle must hold 120 positions");
    }
    unsigned char one[NUM_RANKS], two[NUM_RANKS];
    for (int q = 0; q < NUM_RANKS; q++) {
        one[q] = hand->raw[q] >= unit;
        two[q] = 2 * unit <= RANK_MASK && hand->raw[q] >= 2 * unit;
    }
    Py_ssize_t cell = 0;
    for (int q2 = 0; q2 < NUM_RANKS; q2++) {
        for (int q1 = 0; q1 <= q2; q1++, cell++) {
            if ((q1 < q2 ? one[q1] && one[q2] : two[q1])
                && add_position(out, PyTuple_GET_ITEM(triangle, cell)) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static int
get_long(PyObject *step, Py_ssize_t i, long *value)
{
    PyObject *item = PyTuple_GET_ITEM(step, i);
    if (!PyLong_CheckExact(item)) {
        return bad_program("a step's number is not an int");
    }
    *value = PyLong_AsLong(item);
    return *value == -1 && PyErr_Occurred() ? -1 : 0;
}

/* a step's memo by the mask of ranks lo..hi-1 held ``unit`` times (new reference) */
static PyObject *
memoised(PyObject *step, const Hand *hand)
{
    long lo, hi, unit;
    if (get_long(step, 2, &lo) < 0 || get_long(step, 3, &hi) < 0 || get_long(step, 4, &unit) < 0) {
        return NULL;
    }
    PyObject *memo = PyTuple_GET_ITEM(step, 5);
    if (!PyDict_CheckExact(memo) || lo < 0 || hi > NUM_RANKS) {
        bad_program("a chain step needs a dict and ranks in 0..15");
        return NULL;
    }
    char mask[NUM_RANKS];
    Py_ssize_t n = hi > lo ? hi - lo : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        mask[i] = hand->raw[lo + i] >= unit;
    }
    PyObject *key = PyBytes_FromStringAndSize(mask, n);
    if (key == NULL) {
        return NULL;
    }
    PyObject *got = PyDict_GetItemWithError(memo, key);
    if (got != NULL) {
        Py_INCREF(got);
    } else if (!PyErr_Occurred()) {
        got = PyObject_CallOneArg(PyTuple_GET_ITEM(step, 6), key);
    }
    Py_DECREF(key);
    return got;
}

/* calls a step's Python (code 4, or code 5's ``more``) with the list ``extra``, emptied,
 * to fill; then adds what the list holds */
static int
call_step(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *extra, Positions *out)
{
    if (PyList_SetSlice(extra, 0, PyList_GET_SIZE(extra), NULL) < 0) {
        return -1;
    }
    PyObject *result = PyObject_Vectorcall(fn, args, nargs, NULL);
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(extra); i++) {
        if (add_position(out, PyList_GET_ITEM(extra, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
run_step(PyObject *step, const Hand *hand, PyObject *raw, PyObject **extra, Positions *out)
{
    static const Py_ssize_t sizes[7] = {5, 6, 7, 5, 4, 9, 6};
    long code, need, lo;
    if (!PyTuple_CheckExact(step) || PyTuple_GET_SIZE(step) < 3) {
        return bad_program("a step must be a tuple (code, need, lo, ...)");
    }
    if (get_long(step, 0, &code) < 0 || get_long(step, 1, &need) < 0 || get_long(step, 2, &lo) < 0) {
        return -1;
    }
    if (code < 0 || code > 6 || PyTuple_GET_SIZE(step) != sizes[code]) {
        return bad_program("an unknown step");
    }
    if (lo < 0 || lo > NUM_RANKS) {
        return bad_program("a step's lowest rank must be in 0..15");
    }
    if (need > 1 && hand->top < need) {
        return 0;  /* no rank holds enough cards for a core */
    }
    if (code == 0) {
        PyObject *flat = PyTuple_GET_ITEM(step, 3), *counts = PyTuple_GET_ITEM(step, 4);
        if (!PyTuple_Check(flat) || !PyBytes_CheckExact(counts)
            || PyTuple_GET_SIZE(flat) != NUM_RANKS * PyBytes_GET_SIZE(counts)) {
            return bad_program("a flat step needs 15 positions a count");
        }
        const unsigned char *c = (const unsigned char *)PyBytes_AS_STRING(counts);
        for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(counts); k++) {
            for (long r = lo; r < NUM_RANKS; r++) {
                if (hand->raw[r] >= c[k] && add_position(out, PyTuple_GET_ITEM(flat, k * NUM_RANKS + r)) < 0) {
                    return -1;
                }
            }
        }
        return 0;
    }
    if (code == 1 || code == 6) {
        long count;
        PyObject *rows = PyTuple_GET_ITEM(step, 4), *units = PyTuple_GET_ITEM(step, 5);
        if (get_long(step, 3, &count) < 0) {
            return -1;
        }
        if (!PyTuple_Check(rows) || PyTuple_GET_SIZE(rows) != NUM_RANKS
            || (code == 1 ? !PyBytes_CheckExact(units) : !PyLong_CheckExact(units))) {
            return bad_program("a kicker step needs 15 rows and its kicker units");
        }
        long kick = 0;
        if (code == 6 && get_long(step, 5, &kick) < 0) {
            return -1;
        }
        for (long r = lo; r < NUM_RANKS; r++) {
            if (hand->raw[r] < count) {
                continue;
            }
            PyObject *row = PyTuple_GET_ITEM(rows, r);
            if (code == 6) {
                if (pick_pairs(out, row, hand, kick) < 0) {
                    return -1;
                }
                continue;
            }
            if (!PyTuple_Check(row)) {
                return bad_program("a row must be a tuple");
            }
            if (PyTuple_GET_SIZE(row) == 0) {
                continue;  /* a core without readings */
            }
            const unsigned char *u = (const unsigned char *)PyBytes_AS_STRING(units);
            for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(units); j++) {
                if (pick_ranks(out, row, j * NUM_RANKS, hand, u[j]) < 0) {
                    return -1;
                }
            }
        }
        return 0;
    }
    if (code == 3) {
        PyObject *items = PyTuple_GET_ITEM(step, 3);
        if (!PyBytes_CheckExact(items) || PyBytes_GET_SIZE(items) % 2) {
            return bad_program("a literal step needs (rank, count) bytes");
        }
        const unsigned char *it = (const unsigned char *)PyBytes_AS_STRING(items);
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(items); i += 2) {
            if (it[i] >= NUM_RANKS) {
                return bad_program("a literal step's rank must be below 15");
            }
            if (hand->raw[it[i]] < it[i + 1]) {
                return 0;
            }
        }
        return add_all(out, PyTuple_GET_ITEM(step, 4));
    }
    if (*extra == NULL && (code == 4 || code == 5) && (*extra = PyList_New(0)) == NULL) {
        return -1;
    }
    if (code == 4) {
        PyObject *args[2] = {raw, *extra};
        return call_step(PyTuple_GET_ITEM(step, 3), args, 2, *extra, out);
    }
    PyObject *got = memoised(step, hand);  /* codes 2 and 5 */
    if (got == NULL) {
        return -1;
    }
    int failed = 0;
    if (code == 2) {
        failed = add_all(out, got);
    } else {
        long kick;
        if (get_long(step, 7, &kick) < 0) {
            failed = -1;
        } else if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 3) {
            failed = bad_program("chain cores must be (ones, twos, more)");
        } else {
            PyObject *ones = PyTuple_GET_ITEM(got, 0), *twos = PyTuple_GET_ITEM(got, 1), *more = PyTuple_GET_ITEM(got, 2);
            if (!PyTuple_Check(ones) || !PyTuple_Check(twos) || !PyTuple_Check(more)) {
                failed = bad_program("chain cores must be tuples");
            }
            for (Py_ssize_t i = 0; !failed && i < PyTuple_GET_SIZE(ones); i++) {
                failed = pick_ranks(out, PyTuple_GET_ITEM(ones, i), 0, hand, kick);
            }
            for (Py_ssize_t i = 0; !failed && i < PyTuple_GET_SIZE(twos); i++) {
                failed = pick_pairs(out, PyTuple_GET_ITEM(twos, i), hand, kick);
            }
            if (!failed && PyTuple_GET_SIZE(more)) {
                PyObject *args[3] = {raw, more, *extra};
                failed = call_step(PyTuple_GET_ITEM(step, 8), args, 3, *extra, out);
            }
        }
    }
    Py_DECREF(got);
    return failed;
}

static PyObject *
run_steps(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "run_steps(program, raw) takes 2 arguments");
        return NULL;
    }
    PyObject *program = args[0], *raw = args[1];
    if (!PyTuple_CheckExact(program) || !PyBytes_CheckExact(raw) || PyBytes_GET_SIZE(raw) != NUM_RANKS) {
        PyErr_SetString(PyExc_TypeError, "run_steps: program must be a tuple and raw 15 bytes");
        return NULL;
    }
    Hand hand = {(const unsigned char *)PyBytes_AS_STRING(raw), 0};
    for (int r = 0; r < NUM_RANKS; r++) {
        if (hand.raw[r] > hand.top) {
            hand.top = hand.raw[r];
        }
    }
    /* raw is immutable and held by the caller, and so is the program: a step calling
     * back into Python can change neither */
    Positions found;
    positions_init(&found);
    PyObject *extra = NULL, *out = NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(program); i++) {
        if (run_step(PyTuple_GET_ITEM(program, i), &hand, raw, &extra, &found) < 0) {
            goto done;
        }
    }
    if (sort_found(found.at, found.n) < 0 || (out = PyList_New(found.n)) == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < found.n; i++) {
        PyList_SET_ITEM(out, i, found.at[i].item);  /* the reference moves to the list */
        found.at[i].item = NULL;
    }
done:
    positions_free(&found);
    Py_XDECREF(extra);
    return out;
}

static PyMethodDef quick_methods[] = {
    {"run_steps", (PyCFunction)(void (*)(void))run_steps, METH_FASTCALL,
     "run_steps(program, raw) -> list[int]: the positions a lister program finds in a hand."},
    {"hand_counts", (PyCFunction)(void (*)(void))hand_counts, METH_FASTCALL,
     "hand_counts(hand, limits) -> bytes | None: a hand's counts, a byte a rank, or None."},
    {"legal_tuple", (PyCFunction)(void (*)(void))legal_tuple, METH_FASTCALL,
     "legal_tuple(cls, order, moves) -> cls: the sorted positions' moves, placeholders dropped."},
    {"append_set_bits", (PyCFunction)(void (*)(void))append_set_bits, METH_FASTCALL,
     "append_set_bits(bits, positions, out): out += positions[i] for each bit i set, lowest first."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef quick_module = {
    PyModuleDef_HEAD_INIT, "ddzrules._quick",
    "C kernels of listing a hand's plays (the optional compiled build).", -1, quick_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__quick(void)
{
    if (tuple_new == NULL) {
        tuple_new = PyObject_GetAttrString((PyObject *)&PyTuple_Type, "__new__");
        if (tuple_new == NULL) {
            return NULL;
        }
    }
    if (python_class_dealloc == NULL) {
        PyObject *probe = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){s:()}", "probe",
                                                (PyObject *)&PyTuple_Type, "__slots__");
        if (probe == NULL) {
            return NULL;
        }
        python_class_dealloc = ((PyTypeObject *)probe)->tp_dealloc;
        Py_DECREF(probe);
    }
    return PyModule_Create(&quick_module);
}
