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
 *     The lister's positions as the tuple (of the tuple subclass cls) of moves[i]: sorts
 *     ``order`` (a list of ints) in place and skips its negative placeholders first.
 *
 * append_set_bits(bits, positions, out) -> None
 *     For every bit i set in ``bits`` (an int's bytes, little-endian), lowest first,
 *     appends ``positions[i]`` to the list ``out`` (the wild table's block selection,
 *     wild_table._set_bits). ``positions`` is an array('I') (read through its buffer;
 *     another buffer is refused) or a sequence without a buffer, such as a range.
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
    if (PyList_CheckExact(hand)) {
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
    if (PyList_Sort(order) < 0) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(order), first = 0, size = PyTuple_GET_SIZE(moves);
    PyObject **at = PySequence_Fast_ITEMS(order);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(at[i])) {
            PyErr_SetString(PyExc_TypeError, "legal_tuple: order must hold ints");
            return NULL;
        }
        Py_ssize_t index = PyLong_AsSsize_t(at[i]);
        if (index == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (index < 0) {
            first = i + 1;  /* placeholders (negative) sort first */
        } else if (index >= size) {
            PyErr_SetString(PyExc_IndexError, "legal_tuple: a position outside moves");
            return NULL;
        }
    }
    /* the moves as a plain tuple, then (for a subclass) tuple.__new__(cls, it): the
     * subclass's instance made the way Python makes one */
    PyObject *items = PyTuple_New(n - first);
    if (items == NULL) {
        return NULL;
    }
    /* an allocation may run the garbage collector: read the list afresh */
    if (PyList_GET_SIZE(order) != n) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_RuntimeError, "legal_tuple: order changed");
        return NULL;
    }
    at = PySequence_Fast_ITEMS(order);
    for (Py_ssize_t i = first; i < n; i++) {
        Py_ssize_t index = PyLong_CheckExact(at[i]) ? PyLong_AsSsize_t(at[i]) : -1;
        if (index < 0 || index >= size) {
            Py_DECREF(items);
            PyErr_Clear();
            PyErr_SetString(PyExc_RuntimeError, "legal_tuple: order changed");
            return NULL;
        }
        PyObject *move = PyTuple_GET_ITEM(moves, index);
        Py_INCREF(move);
        PyTuple_SET_ITEM(items, i - first, move);
    }
    if (cls == (PyObject *)&PyTuple_Type) {
        return items;
    }
    /* tuple.__new__ refuses a subclass it cannot make safely (a C type such as
     * time.struct_time, with its own layout) */
    PyObject *call[2] = {cls, items};
    PyObject *result = PyObject_Vectorcall(tuple_new, call, 2, NULL);
    Py_DECREF(items);
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

static PyMethodDef quick_methods[] = {
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
    return PyModule_Create(&quick_module);
}
