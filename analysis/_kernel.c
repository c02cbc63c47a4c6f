/* The placement search of analysis/solver_core.py, compiled (issue 3, Performance).
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
#include <stdint.h>
#include <string.h>

#define NEG (-(INT64_C(1) << 62))
#define MAXW 4   /* okeys the kernel handles */
#define MAXC 3   /* copies of one face the kernel handles */
#define R 8      /* open runs of one length: 0..7 */
#define NU (MAXW + 1)
#define NSTATE (R * R * R * NU * 2)

typedef struct {
    int64_t ar, br, aw, bw;
    int runs, pairs;
} Ctx;

/* ---- per-colour run/pair DP ------------------------------------------------------------------ */

typedef struct {
    int32_t parent;
    uint8_t f, p, r, k;
} Par;

static int64_t dpv[2][NSTATE];
static int32_t act[2][NSTATE];
static int nact[2];
static Par par[13][NSTATE];

static inline int skey(int n1, int n2, int n3, int u, int sat)
{
    return ((((n1 * R + n2) * R + n3) * NU + u) << 1) | sat;
}

static inline void sdecode(int key, int *n1, int *n2, int *n3, int *u, int *sat)
{
    *sat = key & 1;
    key >>= 1;
    *u = key % NU;
    key /= NU;
    *n3 = key % R;
    key /= R;
    *n2 = key % R;
    *n1 = key / R;
}

/* Best weight per exact okey count (best[0..W], NEG where impossible) of the runs and pairs of one
 * colour; ``req`` is the 0-based number that must hold a placed real tile, or -1. With ``trace``
 * the per-number parents are kept in ``par`` and ``ends[u]`` is the final state of best[u]. */
static void colour_dp(const Ctx *cx, const uint8_t *cnt, int W, int req, int64_t *best, int *ends,
                      int trace)
{
    int cur = 0;
    int k0 = skey(0, 0, 0, 0, req < 0);
    dpv[cur][k0] = 0;
    act[cur][0] = k0;
    nact[cur] = 1;
    for (int i = 0; i < 13; i++) {
        int c = cnt[i], n = i + 1, nxt = cur ^ 1;
        int64_t rw = cx->ar * n + cx->br, ww = cx->aw * n + cx->bw;
        nact[nxt] = 0;
        for (int a = 0; a < nact[cur]; a++) {
            int key = act[cur][a];
            int64_t sc = dpv[cur][key];
            int n1, n2, n3, u, sat;
            sdecode(key, &n1, &n2, &n3, &u, &sat);
            int ls = n1 + n2 + n3, wl = W - u, avail = c + wl;
            int fmax = cx->runs ? avail : 0;
            for (int f = 0; f <= fmax; f++) {
                int m1, m2, m3;
                if (f >= ls) {
                    m1 = f - ls; m2 = n1; m3 = n2 + n3;
                } else {
                    int e = ls - f; /* close e runs: only runs of length 3+ may close (M3) */
                    if (n3 < e)
                        continue;
                    m1 = 0; m2 = n1; m3 = n2 + n3 - e;
                }
                if (m1 >= R || m3 >= R)
                    continue;
                int pmax = cx->pairs ? (avail - f) / 2 : 0;
                for (int p = 0; p <= pmax; p++) {
                    int use = f + 2 * p;
                    int rlo = use - wl > p ? use - wl : p; /* a pair holds a real tile */
                    int rhi = c < use ? c : use;
                    for (int r = rlo; r <= rhi; r++) {
                        int k = use - r;
                        int64_t s2 = sc + r * rw + k * ww;
                        int nk = skey(m1, m2, m3, u + k, sat | (i == req && r > 0));
                        int64_t old = dpv[nxt][nk];
                        if (old == NEG)
                            act[nxt][nact[nxt]++] = nk;
                        if (old < s2) {
                            dpv[nxt][nk] = s2;
                            if (trace) {
                                Par *q = &par[i][nk];
                                q->parent = key; q->f = f; q->p = p; q->r = r; q->k = k;
                            }
                        }
                    }
                }
            }
        }
        for (int a = 0; a < nact[cur]; a++)
            dpv[cur][act[cur][a]] = NEG;
        cur = nxt;
    }
    for (int u = 0; u <= W; u++) {
        best[u] = NEG;
        ends[u] = -1;
    }
    for (int a = 0; a < nact[cur]; a++) {
        int key = act[cur][a], n1, n2, n3, u, sat;
        int64_t sc = dpv[cur][key];
        dpv[cur][key] = NEG;
        sdecode(key, &n1, &n2, &n3, &u, &sat);
        if (sat && n1 == 0 && n2 == 0 && sc > best[u]) {
            best[u] = sc;
            ends[u] = key;
        }
    }
}

/* ---- memo of colour answers (per call, stamped by generation) ------------------------------- */

#define MEMO_BITS 14
#define MEMO_SIZE (1 << MEMO_BITS)

typedef struct {
    uint64_t key;
    uint32_t gen;
    int64_t v[NU];
} Memo;

static Memo memo[MEMO_SIZE];
static uint32_t gen = 1;
static int memo_used;

/* colour_best of solver_core: the best with at most u okeys, u = 0..W. */
static const int64_t *colour_best(const Ctx *cx, const uint8_t *cnt, int W, int req)
{
    uint64_t key = 0;
    for (int i = 0; i < 13; i++)
        key = (key << 2) | cnt[i];
    key = (key << 3 | (uint64_t)W) << 4 | (uint64_t)(req + 1);
    uint64_t h = (key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS);
    for (;;) {
        Memo *m = &memo[h];
        if (m->gen != gen)
            break;
        if (m->key == key)
            return m->v;
        h = (h + 1) & (MEMO_SIZE - 1);
    }
    static int64_t tmp[NU];
    int ends[NU];
    colour_dp(cx, cnt, W, req, tmp, ends, 0);
    for (int u = 1; u <= W; u++)
        if (tmp[u] < tmp[u - 1])
            tmp[u] = tmp[u - 1];
    if (memo_used >= MEMO_SIZE * 3 / 4)
        return tmp;
    Memo *m = &memo[h];
    m->key = key;
    m->gen = gen;
    memcpy(m->v, tmp, sizeof tmp);
    memo_used++;
    return m->v;
}

/* out = max-plus convolution of x and y (0..W each). */
static void conv(int64_t *out, const int64_t *x, const int64_t *y, int W)
{
    int64_t t[NU];
    for (int i = 0; i <= W; i++)
        t[i] = NEG;
    for (int i = 0; i <= W; i++) {
        if (x[i] == NEG)
            continue;
        for (int j = 0; i + j <= W; j++)
            if (y[j] != NEG && x[i] + y[j] > t[i + j])
                t[i + j] = x[i] + y[j];
    }
    memcpy(out, t, sizeof(int64_t) * (W + 1));
}

static void pair_vec(const Ctx *cx, int64_t *v, int W)
{
    int64_t wpair = 2 * (cx->aw * 13 + cx->bw);
    for (int u = 0; u <= W; u++)
        v[u] = u >= 2 ? wpair : 0;
}

/* Runs and pairs of the whole rack with at most u okeys, u = 0..W; req_face -1 when done. */
static void leaf_vec(const Ctx *cx, const uint8_t *counts, int W, int req_face, int64_t *vec)
{
    for (int u = 0; u <= W; u++)
        vec[u] = 0;
    for (int c = 0; c < 4; c++) {
        int r = req_face >= 0 && req_face / 13 == c ? req_face % 13 : -1;
        conv(vec, vec, colour_best(cx, counts + 13 * c, W, r), W);
    }
    if (cx->pairs && W >= 2) {
        int64_t pv[NU];
        pair_vec(cx, pv, W);
        conv(vec, vec, pv, W);
    }
}

/* ---- group options per number ---------------------------------------------------------------- */

typedef struct {
    uint8_t g[4], k;
    int64_t score;
} Opt;

#define MAXOPT ((MAXC + 1) * (MAXC + 1) * (MAXC + 1) * (MAXC + 1) * NU)

typedef struct {
    int n, nopt;
    Opt opt[MAXOPT];
} Slot;

static Slot slots[13];

/* Can T tiles with at most gmax of one colour form groups of 3-4 distinct colours (M2)? */
static inline int group_ok(int T, int gmax)
{
    int m = gmax > (T + 3) / 4 ? gmax : (T + 3) / 4;
    return 3 * m <= T;
}

static int opt_cmp(const void *a, const void *b)
{
    int64_t x = ((const Opt *)a)->score, y = ((const Opt *)b)->score;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Options at number n: groups of cc[] reals and okeys, collapsed over colours whose tiles have no
 * other use (``contested`` false), best first. */
static void number_options(const Ctx *cx, Slot *s, int n, const uint8_t *cc, int W, const int *contested)
{
    static int where[(MAXC + 2) * (MAXC + 2) * (MAXC + 2) * (MAXC + 2) * NU];
    int64_t rw = cx->ar * (n + 1) + cx->br, ww = cx->aw * (n + 1) + cx->bw;
    s->n = n;
    s->nopt = 0;
    memset(where, -1, sizeof where);
    for (int g0 = 0; g0 <= cc[0]; g0++)
        for (int g1 = 0; g1 <= cc[1]; g1++)
            for (int g2 = 0; g2 <= cc[2]; g2++)
                for (int g3 = 0; g3 <= cc[3]; g3++)
                    for (int k = 0; k <= W; k++) {
                        int g[4] = {g0, g1, g2, g3};
                        int sg = g0 + g1 + g2 + g3, gmax = 0, T = sg + k;
                        for (int c = 0; c < 4; c++)
                            if (g[c] > gmax)
                                gmax = g[c];
                        if (T && !group_ok(T, gmax))
                            continue;
                        int64_t score = sg * rw + k * ww;
                        int idx = k;
                        for (int c = 0; c < 4; c++)
                            idx = idx * (MAXC + 2) + (contested[c] ? g[c] + 1 : 0);
                        int at = where[idx];
                        if (at < 0) {
                            at = where[idx] = s->nopt++;
                        } else if (s->opt[at].score >= score) {
                            continue;
                        }
                        Opt *o = &s->opt[at];
                        memcpy(o->g, (uint8_t[4]){g0, g1, g2, g3}, 4);
                        o->k = k;
                        o->score = score;
                    }
    qsort(s->opt, s->nopt, sizeof(Opt), opt_cmp);
}

/* Per colour, per number: could a real tile there join a run (some 3-window through it needs at
 * most W okeys)? */
static void runnable(const uint8_t *cnt, int W, int *out)
{
    int win[11];
    for (int s = 0; s < 11; s++)
        win[s] = (cnt[s] == 0) + (cnt[s + 1] == 0) + (cnt[s + 2] == 0) <= W;
    for (int n = 0; n < 13; n++) {
        out[n] = 0;
        if (!cnt[n])
            continue;
        for (int s = n - 2 < 0 ? 0 : n - 2; s <= (n < 10 ? n : 10); s++)
            if (win[s])
                out[n] = 1;
    }
}

/* ---- the search ---------------------------------------------------------------------------- */

typedef struct {
    const Ctx *cx;
    uint8_t counts[52];
    int W, req, nslots;
    int64_t rws[13], ww_max;
    int64_t bound[14][NU];
    int64_t best_score;
    int path[13], best_path[13];
} Search;

static void dfs(Search *S, int i, int wused, int64_t score, int64_t tw, int req_done)
{
    int wrem = S->W - wused;
    if (i == S->nslots) {
        int64_t vec[NU];
        leaf_vec(S->cx, S->counts, wrem, req_done ? -1 : S->req, vec);
        if (vec[wrem] == NEG)
            return;
        if (score + vec[wrem] > S->best_score) {
            S->best_score = score + vec[wrem];
            memcpy(S->best_path, S->path, sizeof S->path);
        }
        return;
    }
    int64_t b1 = S->bound[i][wrem], b2 = tw + wrem * S->ww_max;
    if (score + (b1 < b2 ? b1 : b2) <= S->best_score)
        return;
    Slot *s = &slots[i];
    int n = s->n;
    for (int j = 0; j < s->nopt; j++) {
        Opt *o = &s->opt[j];
        if (o->k > wrem)
            continue;
        int ok = 1;
        for (int c = 0; c < 4; c++)
            if (S->counts[c * 13 + n] < o->g[c])
                ok = 0;
        if (!ok)
            continue;
        int64_t dtw = 0;
        int rd = req_done;
        for (int c = 0; c < 4; c++) {
            S->counts[c * 13 + n] -= o->g[c];
            dtw += o->g[c] * S->rws[n];
            if (o->g[c] && c * 13 + n == S->req)
                rd = 1;
        }
        S->path[i] = j;
        dfs(S, i + 1, wused + o->k, score + o->score, tw - dtw, rd);
        for (int c = 0; c < 4; c++)
            S->counts[c * 13 + n] += o->g[c];
    }
}

/* Split W okeys between the vectors so that their values sum to ``need``. */
static int split(int64_t vecs[][NU], int nv, int i, int left, int64_t need, int *alloc)
{
    if (i == nv)
        return need == 0;
    for (int u = 0; u <= left; u++) {
        if (vecs[i][u] == NEG)
            continue;
        alloc[i] = u;
        if (split(vecs, nv, i + 1, left - u, need - vecs[i][u], alloc))
            return 1;
    }
    return 0;
}

/* Append the runs and pairs of colour c's best plan with at most u okeys. */
static int colour_plan(const Ctx *cx, const uint8_t *cnt, int W, int u, int req, int c,
                       PyObject *runs, PyObject *pairs)
{
    int64_t best[NU];
    int ends[NU];
    colour_dp(cx, cnt, W, req, best, ends, 1);
    int bu = 0;
    for (int x = 1; x <= u; x++)
        if (best[x] > best[bu])
            bu = x;
    int key = ends[bu];
    if (key < 0)
        return 0;
    Par ch[13];
    for (int i = 12; i >= 0; i--) {
        ch[i] = par[i][key];
        key = ch[i].parent;
    }
    int start[16], nok[16], okn[16][13], nopen = 0;
    for (int i = 0; i < 13; i++) {
        int f = ch[i].f, p = ch[i].p, r = ch[i].r, k = ch[i].k;
        int reals_for_runs = f < r - p ? f : r - p;
        int pair_wild = k - (f - reals_for_runs);
        if (f < nopen) { /* close the earliest started (longest) runs */
            int e = nopen - f;
            for (int j = 0; j < e; j++) {
                PyObject *wl = PyTuple_New(nok[j]);
                for (int q = 0; q < nok[j]; q++)
                    PyTuple_SET_ITEM(wl, q, PyLong_FromLong(okn[j][q]));
                PyObject *t = Py_BuildValue("(iiiN)", c, start[j], i - 1, wl);
                PyList_Append(runs, t);
                Py_DECREF(t);
            }
            for (int j = e; j < nopen; j++) {
                start[j - e] = start[j];
                nok[j - e] = nok[j];
                memcpy(okn[j - e], okn[j], sizeof okn[j]);
            }
            nopen = f;
        } else {
            for (; nopen < f; nopen++) {
                start[nopen] = i;
                nok[nopen] = 0;
            }
        }
        for (int j = reals_for_runs; j < nopen; j++)
            okn[j][nok[j]++] = i;
        for (int q = 0; q < p; q++) {
            PyObject *t = Py_BuildValue("(ii)", c * 13 + i, q < pair_wild ? 1 : 0);
            PyList_Append(pairs, t);
            Py_DECREF(t);
        }
    }
    for (int j = 0; j < nopen; j++) {
        PyObject *wl = PyTuple_New(nok[j]);
        for (int q = 0; q < nok[j]; q++)
            PyTuple_SET_ITEM(wl, q, PyLong_FromLong(okn[j][q]));
        PyObject *t = Py_BuildValue("(iiiN)", c, start[j], 12, wl);
        PyList_Append(runs, t);
        Py_DECREF(t);
    }
    return 1;
}

static PyObject *k_search(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    int W, runs_ok, pairs_ok, req;
    long long ar, br, aw, bw;
    if (!PyArg_ParseTuple(args, "y*iLLLLppi", &buf, &W, &ar, &br, &aw, &bw, &runs_ok, &pairs_ok, &req))
        return NULL;
    if (buf.len != 52 || W < 0 || W > MAXW || req < -1 || req >= 52) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "kernel: 52 counts of 0..3, 0..4 okeys, a face or -1");
        return NULL;
    }
    Ctx cx = {ar, br, aw, bw, runs_ok, pairs_ok};
    Search S;
    memcpy(S.counts, buf.buf, 52);
    PyBuffer_Release(&buf);
    for (int f = 0; f < 52; f++)
        if (S.counts[f] > MAXC) {
            PyErr_SetString(PyExc_ValueError, "kernel: 52 counts of 0..3, 0..4 okeys, a face or -1");
            return NULL;
        }
    S.cx = &cx;
    S.W = W;
    S.req = req;
    if (++gen == 0)
        gen = 1, memset(memo, 0, sizeof memo);
    memo_used = 0;
    for (int n = 0; n < 13; n++)
        S.rws[n] = ar * (n + 1) + br;
    S.ww_max = aw * 13 + bw > aw + bw ? aw * 13 + bw : aw + bw;

    /* the slots: numbers where a group can form, high numbers first */
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
    int nslots = 0, slot_face[52] = {0};
    for (int n = 12; n >= 0 && runs_ok; n--) {
        uint8_t cc[4];
        int present = 0;
        for (int c = 0; c < 4; c++) {
            cc[c] = S.counts[c * 13 + n];
            present += cc[c] > 0;
        }
        if (!present || present < 3 - W)
            continue;
        Slot *s = &slots[nslots];
        number_options(&cx, s, n, cc, W, contested[n]);
        if (s->nopt > 1 || s->opt[0].score) {
            for (int c = 0; c < 4; c++)
                if (cc[c])
                    slot_face[c * 13 + n] = 1;
            nslots++;
        }
    }
    S.nslots = nslots;
    S.best_score = NEG;
    if (!nslots) {
        int64_t vec[NU];
        leaf_vec(&cx, S.counts, W, req, vec);
        S.best_score = vec[W];
    } else {
        int64_t root[NU], rest[14][NU];
        leaf_vec(&cx, S.counts, W, -1, root);
        for (int w = 0; w <= W; w++)
            rest[nslots][w] = 0;
        for (int i = nslots - 1; i >= 0; i--) {
            for (int w = 0; w <= W; w++)
                rest[i][w] = 0;
            for (int j = 0; j < slots[i].nopt; j++) {
                Opt *o = &slots[i].opt[j];
                for (int w = o->k; w <= W; w++)
                    if (o->score + rest[i + 1][w - o->k] > rest[i][w])
                        rest[i][w] = o->score + rest[i + 1][w - o->k];
            }
        }
        for (int i = 0; i <= nslots; i++)
            for (int w = 0; w <= W; w++) {
                int64_t b = NEG;
                for (int x = 0; x <= w; x++)
                    if (root[w - x] != NEG && root[w - x] + rest[i][x] > b)
                        b = root[w - x] + rest[i][x];
                S.bound[i][w] = b;
            }
        int64_t tw = 0;
        for (int f = 0; f < 52; f++) {
            int x = S.counts[f];
            if (x && (run_ok[f / 13][f % 13] || slot_face[f] || (pairs_ok && (x >= 2 || W))))
                tw += x * S.rws[f % 13];
        }
        dfs(&S, 0, 0, 0, tw, req < 0);
    }
    if (S.best_score <= NEG / 2)
        Py_RETURN_NONE;

    /* rebuild the plan: the groups of the best path, then every colour's runs and pairs */
    PyObject *runs = PyList_New(0), *groups = PyList_New(0), *pairs = PyList_New(0);
    int64_t need = S.best_score;
    int Wl = W, req_done = req < 0;
    for (int i = 0; i < nslots; i++) {
        Opt *o = &slots[i].opt[S.best_path[i]];
        int n = slots[i].n;
        need -= o->score;
        Wl -= o->k;
        for (int c = 0; c < 4; c++) {
            S.counts[c * 13 + n] -= o->g[c];
            if (o->g[c] && c * 13 + n == req)
                req_done = 1;
        }
        if (o->g[0] + o->g[1] + o->g[2] + o->g[3] + o->k) {
            PyObject *t = Py_BuildValue("(i(iiii)i)", n, o->g[0], o->g[1], o->g[2], o->g[3], o->k);
            PyList_Append(groups, t);
            Py_DECREF(t);
        }
    }
    int64_t vecs[5][NU];
    int alloc[5] = {0};
    for (int c = 0; c < 4; c++) {
        int r = !req_done && req / 13 == c ? req % 13 : -1;
        memcpy(vecs[c], colour_best(&cx, S.counts + 13 * c, Wl, r), sizeof(int64_t) * (Wl + 1));
    }
    if (pairs_ok && Wl >= 2)
        pair_vec(&cx, vecs[4], Wl);
    else
        for (int u = 0; u <= Wl; u++)
            vecs[4][u] = 0;
    if (!split(vecs, 5, 0, Wl, need, alloc)) {
        Py_DECREF(runs); Py_DECREF(groups); Py_DECREF(pairs);
        PyErr_SetString(PyExc_AssertionError, "kernel: okey split not found");
        return NULL;
    }
    for (int c = 0; c < 4; c++) {
        int r = !req_done && req / 13 == c ? req % 13 : -1;
        colour_plan(&cx, S.counts + 13 * c, Wl, alloc[c], r, c, runs, pairs);
    }
    if (alloc[4] >= 2) {
        PyObject *t = Py_BuildValue("(ii)", -1, 2);
        PyList_Append(pairs, t);
        Py_DECREF(t);
    }
    return Py_BuildValue("(LNNN)", (long long)S.best_score, runs, groups, pairs);
}

static int k_init(void)
{
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < NSTATE; i++)
            dpv[b][i] = NEG;
    return 0;
}

static PyMethodDef methods[] = {
    {"search", k_search, METH_VARARGS, "The best placement of a problem without table slots."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void)
{
    k_init();
    return PyModule_Create(&module);
}
