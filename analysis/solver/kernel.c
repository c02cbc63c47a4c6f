/* The placement search of analysis/solver_core.py, compiled (docs/figures.md, Solver).
 *
 * Same problem, same algorithm, same answers as ``solver_core.search`` for a problem without
 * table slots (no lay-offs): a count vector over the 52 faces (a false okey counts as the okey's
 * face, T5), a number of wild okeys (T4), linear weights real(n) = ar*n + br, okey(n) = aw*n + bw,
 * whether runs/groups and pairs may be placed, and a face that must be placed (P2).
 *
 *  - groups (M2) live at one number: a depth-first branch-and-bound over the numbers, high first,
 *    picks the group tiles, bounded by the runs of the untouched rack plus the best the remaining
 *    numbers can add, and by the weight of every tile still placeable;
 *  - runs (M3) and pairs (M4) never mix colours, so at each leaf every colour is solved on its own
 *    by a DP over the numbers 1-13 whose state is the open runs (how many of length 1, 2 and 3+),
 *    the okeys used and whether the required face is placed; its answers are memoised per call.
 *
 * search(counts: bytes[52], wilds, ar, br, aw, bw, runs, pairs, required) -> None or
 *   (score, runs [(colour, first, last, (okey numbers...))], groups [(number, (g0, g1, g2, g3), okeys)],
 *    pairs [(face or -1, okeys in it)])        numbers and faces 0-based, as in solver_core.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel_search.h"

static int append(PyObject *list, PyObject *item)
{
    if (!item)
        return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

/* Append the run (colour, first, last, (okey numbers...)) to ``runs``. */
static int emit_run(PyObject *runs, int c, int first, int last, const int *okeys, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int q = 0; t && q < n; q++)
        PyTuple_SET_ITEM(t, q, PyLong_FromLong(okeys[q]));
    return append(runs, t ? Py_BuildValue("(iiiN)", c, first, last, t) : NULL);
}

typedef struct {
    PyObject *runs, *pairs;
} PyPlan;

static int py_run(void *to, int c, int first, int last, const int *okeys, int n)
{
    return emit_run(((PyPlan *)to)->runs, c, first, last, okeys, n);
}

static int py_pair(void *to, int face, int wild)
{
    return append(((PyPlan *)to)->pairs, Py_BuildValue("(ii)", face, wild));
}

/* Append the runs and pairs of colour c's best plan with at most u okeys. */
static int colour_plan(const Ctx *cx, const uint8_t *cnt, int W, int u, int req, int c,
                       PyObject *runs, PyObject *pairs)
{
    PyPlan to = {runs, pairs};
    Emit em = {py_run, py_pair, &to};
    return colour_walk(cx, cnt, W, u, req, c, &em);
}

/* The answer of the best path: (score, chosen options, runs, pairs). A chosen option is
 * (0, number, (new group tiles per colour), okeys in new groups, ((table group, colour, okey?), ...))
 * for a number slot and (1, run slot, tiles laid off, (okey? per tile)) for a run slot. */
static PyObject *plan(Search *S)
{
    if (S->best_score <= NEG / 2)
        Py_RETURN_NONE;
    const Ctx *cx = &S->cx;
    PyObject *path = PyList_New(0), *runs = PyList_New(0), *pairs = PyList_New(0), *out = NULL;
    if (!path || !runs || !pairs)
        goto done;
    int64_t need = S->best_score;
    int Wl = S->W, req = S->req, req_done = S->req < 0;
    for (int i = 0; i < S->nslots; i++) {
        Slot *s = &S->slots[i];
        Opt *o = &s->opt[S->best_path[i]];
        need -= o->score;
        Wl -= o->k;
        for (int q = 0; q < o->nrem; q++) {
            S->counts[o->face[q]] -= o->cnt[q];
            req_done |= o->face[q] == req;
        }
        PyObject *item;
        if (!o->nrem && !o->k)
            continue; /* nothing placed here */
        if (s->n >= 0) {
            PyObject *lays = PyList_New(0);
            for (int l = 0; lays && l < s->nlay; l++)
                if (o->lay[l] && append(lays, Py_BuildValue("(iiO)", s->lay_gs[l], s->lay_c[l],
                                                             o->lay[l] == 2 ? Py_True : Py_False))) {
                    Py_CLEAR(lays);
                }
            if (!lays)
                goto done;
            item = Py_BuildValue("(ii(iiii)iN)", 0, s->n, o->g[0], o->g[1], o->g[2], o->g[3], o->knew, lays);
        } else {
            PyObject *fl = PyTuple_New(o->j);
            for (int q = 0; fl && q < o->j; q++) {
                PyObject *b = o->flags >> q & 1 ? Py_True : Py_False;
                Py_INCREF(b);
                PyTuple_SET_ITEM(fl, q, b);
            }
            if (!fl)
                goto done;
            item = Py_BuildValue("(iiiN)", 1, s->rs, o->j, fl);
        }
        if (append(path, item))
            goto done;
    }
    int alloc[5];
    int64_t val[4];
    int left = req_done ? -1 : req; /* the required face, if no slot option placed it */
    if (!split_rest(S, need, Wl, left, alloc, val)) {
        PyErr_SetString(PyExc_AssertionError, "kernel: okey split not found");
        goto done;
    }
    for (int c = 0; c < 4; c++)
        if (val[c] && colour_plan(cx, S->counts + 13 * c, Wl, alloc[c], req_in(left, c), c, runs, pairs))
            goto done;
    if (alloc[4] >= 2 && append(pairs, Py_BuildValue("(ii)", -1, 2)))
        goto done;
    out = Py_BuildValue("(LOOO)", (long long)S->best_score, path, runs, pairs);
done:
    Py_XDECREF(path);
    Py_XDECREF(runs);
    Py_XDECREF(pairs);
    return out;
}

static const char BAD[] = "kernel: 52 counts of 0..3, 0..4 okeys, a face or -1";

/* search(counts, wilds, ar, br, aw, bw, runs, pairs, required, run_slots, group_slots)
 *   run_slots: [(colour, bytes of numbers outward from the run end)], group_slots: [(number,
 *   bytes of missing colours)]. OverflowError when the problem is past the kernel's tables. */
static PyObject *k_search(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer buf;
    int W, runs_ok, pairs_ok, req;
    long long ar, br, aw, bw;
    PyObject *rsl, *gsl;
    if (!PyArg_ParseTuple(args, "y*iLLLLppiO!O!", &buf, &W, &ar, &br, &aw, &bw, &runs_ok, &pairs_ok, &req,
                          &PyList_Type, &rsl, &PyList_Type, &gsl))
        return NULL;
    static Search S;
    static Slot slots[13 + MAXSLOT];
    int bad = buf.len != 52 || W < 0 || W > MAXW || req < -1 || req >= 52;
    if (!bad) {
        memcpy(S.counts, buf.buf, 52);
        for (int f = 0; f < 52; f++)
            bad |= S.counts[f] > MAXC;
    }
    PyBuffer_Release(&buf);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, BAD);
        return NULL;
    }
    S.cx = (Ctx){ar, br, aw, bw, runs_ok, pairs_ok};
    S.W = W;
    S.req = req;
    memo_begin(&S.cx);
    pool_used = 0;
    const Ctx *cx = &S.cx;

    /* the caller's slots */
    Py_ssize_t nrs = PyList_GET_SIZE(rsl), ngs = PyList_GET_SIZE(gsl);
    if (nrs > MAXSLOT) {
        PyErr_SetString(PyExc_OverflowError, "kernel: too many run ends");
        return NULL;
    }
    int rs_colour[MAXSLOT], rs_len[MAXSLOT];
    uint8_t rs_nums[MAXSLOT][12];
    for (Py_ssize_t i = 0; i < nrs; i++) {
        const char *nums;
        Py_ssize_t len;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(rsl, i), "iy#", &rs_colour[i], &nums, &len))
            return NULL;
        if (rs_colour[i] < 0 || rs_colour[i] > 3 || len > 12) {
            PyErr_SetString(PyExc_ValueError, "kernel: a run end is a colour and up to 12 numbers");
            return NULL;
        }
        rs_len[i] = (int)len;
        for (int q = 0; q < len; q++) {
            rs_nums[i][q] = (uint8_t)nums[q];
            if (rs_nums[i][q] > 12) {
                PyErr_SetString(PyExc_ValueError, "kernel: a run end is a colour and up to 12 numbers");
                return NULL;
            }
        }
    }
    int nlay[13] = {0}, lay_gs[13][MAXLAY], lay_c[13][MAXLAY];
    for (Py_ssize_t i = 0; i < ngs; i++) {
        const char *cols;
        Py_ssize_t len;
        int n;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(gsl, i), "iy#", &n, &cols, &len))
            return NULL;
        if (n < 0 || n > 12) {
            PyErr_SetString(PyExc_ValueError, "kernel: a group slot's number is 0..12");
            return NULL;
        }
        for (int q = 0; q < len; q++) {
            if (nlay[n] >= MAXLAY) {
                PyErr_SetString(PyExc_OverflowError, "kernel: too many table groups at one number");
                return NULL;
            }
            if ((uint8_t)cols[q] > 3) {
                PyErr_SetString(PyExc_ValueError, "kernel: a colour is 0..3");
                return NULL;
            }
            lay_gs[n][nlay[n]] = (int)i;
            lay_c[n][nlay[n]++] = (uint8_t)cols[q];
        }
    }

    /* contested tiles: those a run, a run end or a pair could take */
    int contested[13][4], run_ok[4][13];
    for (int c = 0; c < 4; c++) {
        if (runs_ok)
            runnable(S.counts + 13 * c, W, run_ok[c]);
        else
            memset(run_ok[c], 0, sizeof run_ok[c]);
    }
    for (int n = 0; n < 13; n++)
        for (int c = 0; c < 4; c++) {
            int x = S.counts[c * 13 + n];
            contested[n][c] = run_ok[c][n] || (pairs_ok && (x >= 2 || (x && W)));
        }
    for (int i = 0; i < nrs; i++)
        for (int q = 0; q < rs_len[i]; q++)
            contested[rs_nums[i][q]][rs_colour[i]] = 1;

    /* the slots: numbers where a group can form or a table group takes a tile, high numbers first,
     * then the run ends */
    int nslots = 0;
    for (int n = 12; n >= 0; n--) {
        uint8_t cc[4];
        int present = 0, lay_any = 0;
        for (int c = 0; c < 4; c++) {
            cc[c] = S.counts[c * 13 + n];
            present += cc[c] > 0;
        }
        for (int l = 0; l < nlay[n]; l++)
            lay_any |= cc[lay_c[n][l]] > 0;
        int can_group = runs_ok && present && present >= 3 - W;
        int can_lay = nlay[n] && (W > 0 || lay_any);
        if (!can_group && !can_lay)
            continue;
        Slot *s = &slots[nslots];
        s->nlay = nlay[n];
        memcpy(s->lay_gs, lay_gs[n], sizeof lay_gs[n]);
        memcpy(s->lay_c, lay_c[n], sizeof lay_c[n]);
        int mark = pool_used;
        if (number_options(cx, s, n, cc, W, contested[n], can_group)) {
            PyErr_SetString(PyExc_OverflowError, "kernel: too many options");
            return NULL;
        }
        if (s->nopt > 1 || s->opt[0].score)
            nslots++;
        else
            pool_used = mark;
    }
    for (int i = 0; i < nrs; i++) {
        Slot *s = &slots[nslots];
        int mark = pool_used;
        if (run_options(cx, s, i, rs_colour[i], rs_nums[i], rs_len[i], S.counts, W)) {
            PyErr_SetString(PyExc_OverflowError, "kernel: too many options");
            return NULL;
        }
        if (s->nopt > 1)
            nslots++;
        else
            pool_used = mark;
    }
    S.slots = slots;
    S.nslots = nslots;
    if (nslots > MAXSLOT) {
        PyErr_SetString(PyExc_OverflowError, "kernel: too many slots");
        return NULL;
    }

    /* the weight of every real tile something could take */
    int slot_face[52] = {0};
    for (int i = 0; i < nslots; i++)
        for (int j = 0; j < slots[i].nopt; j++)
            for (int q = 0; q < slots[i].opt[j].nrem; q++)
                slot_face[slots[i].opt[j].face[q]] = 1;
    int64_t tw = 0;
    for (int f = 0; f < 52; f++) {
        int x = S.counts[f];
        if (x && (run_ok[f / 13][f % 13] || slot_face[f] || (pairs_ok && (x >= 2 || W))))
            tw += x * real_weight(cx, f);
    }
    run_search(&S, tw);
    return plan(&S);
}

static PyMethodDef methods[] = {
    {"search", k_search, METH_VARARGS, "The best placement of a problem (see solver_core.search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kernel", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_kernel(void)
{
    kernel_init();
    return PyModule_Create(&module);
}
