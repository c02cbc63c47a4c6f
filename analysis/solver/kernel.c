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
/* The numbers a colour's runs can reach: its tiles, and W beyond either end for okeys (lo > hi
 * when the colour has no tile). */
static void span(const uint8_t *cnt, int W, int *lo, int *hi)
{
    int a = 0, b = 12;
    while (a < 13 && !cnt[a])
        a++;
    while (b >= 0 && !cnt[b])
        b--;
    *lo = a > 12 ? 13 : (a - W < 0 ? 0 : a - W);
    *hi = b < 0 ? 12 : (b + W > 12 ? 12 : b + W);
}

static void colour_dp(const Ctx *cx, const uint8_t *cnt, int W, int req, int64_t *best, int *ends,
                      int trace)
{
    int cur = 0, lo, hi;
    int k0 = skey(0, 0, 0, 0, req < 0);
    dpv[cur][k0] = 0;
    act[cur][0] = k0;
    nact[cur] = 1;
    span(cnt, W, &lo, &hi);
    for (int i = lo; i <= hi; i++) {
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

/* ---- memo of colour answers, stamped by generation ------------------------------------------
 * An answer depends on the colour's 13 counts, W, req, whether runs and pairs may be placed (all
 * in the key) and the weights: the memo outlives a search while the weights stay the same (the
 * rollouts of one hand search one rack after another with the same weights, and a colour's counts
 * come back again and again), and is emptied when they change or it is three quarters full. */

#define MEMO_BITS 14
#define MEMO_SIZE (1 << MEMO_BITS)

typedef struct {
    uint64_t k0, k1;
    uint32_t gen;
    int64_t v[NU];
} Memo;

static Memo memo[MEMO_SIZE];
static uint32_t gen = 1;
static int memo_used;
static int64_t memo_w[4] = {-1, -1, -1, -1}; /* the weights (ar, br, aw, bw) its answers are for */

/* Called at the start of every search with its weights. */
static void memo_begin(const Ctx *cx)
{
    if (cx->ar == memo_w[0] && cx->br == memo_w[1] && cx->aw == memo_w[2] && cx->bw == memo_w[3] &&
        memo_used < MEMO_SIZE / 2)
        return;
    memo_w[0] = cx->ar;
    memo_w[1] = cx->br;
    memo_w[2] = cx->aw;
    memo_w[3] = cx->bw;
    if (++gen == 0) {
        gen = 1;
        memset(memo, 0, sizeof memo);
    }
    memo_used = 0;
}

/* colour_best of solver_core: the best with at most u okeys, u = 0..W. The key: the 13 counts
 * as they lie in memory (two loads), then W, req and the runs and pairs flags. */
static const int64_t *colour_best(const Ctx *cx, const uint8_t *cnt, int W, int req)
{
    uint64_t k0, k1 = 0;
    memcpy(&k0, cnt, 8);
    memcpy(&k1, cnt + 8, 5);
    k1 |= (uint64_t)W << 40 | (uint64_t)(req + 1) << 44 | (uint64_t)(cx->runs != 0) << 52 |
          (uint64_t)(cx->pairs != 0) << 53;
    uint64_t h = ((k0 ^ (k1 * UINT64_C(0xC2B2AE3D27D4EB4F))) * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS);
    for (;;) {
        Memo *m = &memo[h];
        if (m->gen != gen)
            break;
        if (m->k0 == k0 && m->k1 == k1)
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
    m->k0 = k0;
    m->k1 = k1;
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

/* The 0-based number colour c must place a real tile at, or -1 (``face`` -1: nothing required). */
static inline int req_in(int face, int c)
{
    return face >= 0 && face / 13 == c ? face % 13 : -1;
}

/* Runs and pairs of the whole rack with at most u okeys, u = 0..W; req_face -1 when done. */
static void leaf_vec(const Ctx *cx, const uint8_t *counts, int W, int req_face, int64_t *vec)
{
    if (W == 0) { /* no okey: a sum (the pairs' vector is 0 at u = 0) */
        int64_t v = 0;
        for (int c = 0; c < 4; c++) {
            int64_t x = colour_best(cx, counts + 13 * c, 0, req_in(req_face, c))[0];
            if (x == NEG) {
                vec[0] = NEG;
                return;
            }
            v += x;
        }
        vec[0] = v;
        return;
    }
    for (int u = 0; u <= W; u++)
        vec[u] = 0;
    for (int c = 0; c < 4; c++) {
        conv(vec, vec, colour_best(cx, counts + 13 * c, W, req_in(req_face, c)), W);
    }
    if (cx->pairs && W >= 2) {
        int64_t pv[NU];
        pair_vec(cx, pv, W);
        conv(vec, vec, pv, W);
    }
}

/* ---- slots: what may be placed at one number (groups, group lay-offs) or one run end ------------ */

#define MAXREM 13  /* faces one option takes tiles of */
#define MAXLAY 4   /* table groups' missing colours at one number */
#define MAXSLOT 64 /* run ends */
#define POOL (1 << 17)

typedef struct {
    uint8_t k, nrem;
    uint8_t face[MAXREM], cnt[MAXREM];
    uint8_t g[4], knew; /* number slot: new group tiles per colour, okeys in new groups */
    uint8_t lay[MAXLAY]; /* number slot, per lay pair: 0 nothing, 1 a real tile, 2 an okey */
    uint8_t j;           /* run slot: tiles laid off */
    uint16_t flags;      /* run slot: bit i set when the i-th tile laid off is an okey */
    int64_t score;
} Opt;

typedef struct {
    int n;  /* number slot: its number; run slot: -1 */
    int rs; /* run slot: its index in the caller's list */
    int nlay, lay_gs[MAXLAY], lay_c[MAXLAY]; /* number slot: (table group, missing colour) pairs */
    int nopt;
    Opt *opt;
} Slot;

static Opt pool[POOL];
static int pool_used;

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

/* Options at number n: new groups of cc[] reals and okeys (when ``new_groups``) and lay-offs onto
 * the table groups missing a colour there, collapsed over colours whose tiles have no other use
 * (``contested`` false), best first. -1 when the pool is full. */
static int number_options(const Ctx *cx, Slot *s, int n, const uint8_t *cc, int W, const int *contested,
                          int new_groups)
{
    static int where[(MAXC + 2) * (MAXC + 2) * (MAXC + 2) * (MAXC + 2) * NU];
    static int touched[(MAXC + 2) * (MAXC + 2) * (MAXC + 2) * (MAXC + 2) * NU], ntouched;
    static int ready;
    if (!ready) {
        memset(where, -1, sizeof where);
        ready = 1;
    }
    for (int i = 0; i < ntouched; i++)
        where[touched[i]] = -1;
    ntouched = 0;
    int64_t rw = cx->ar * (n + 1) + cx->br, ww = cx->aw * (n + 1) + cx->bw;
    int gm[4], kmax = new_groups ? W : 0, ncomb = 1;
    for (int c = 0; c < 4; c++)
        gm[c] = new_groups ? cc[c] : 0;
    for (int l = 0; l < s->nlay; l++)
        ncomb *= 3;
    s->n = n;
    s->rs = -1;
    s->nopt = 0;
    s->opt = &pool[pool_used];
    for (int g0 = 0; g0 <= gm[0]; g0++)
        for (int g1 = 0; g1 <= gm[1]; g1++)
            for (int g2 = 0; g2 <= gm[2]; g2++)
                for (int g3 = 0; g3 <= gm[3]; g3++)
                    for (int k = 0; k <= kmax; k++) {
                        int g[4] = {g0, g1, g2, g3};
                        int sg = g0 + g1 + g2 + g3, gmax = 0;
                        for (int c = 0; c < 4; c++)
                            if (g[c] > gmax)
                                gmax = g[c];
                        if (sg + k && !group_ok(sg + k, gmax))
                            continue;
                        for (int comb = 0; comb < ncomb; comb++) {
                            int use[4] = {g0, g1, g2, g3}, kk = k, x = comb, ok = 1;
                            uint8_t ch[MAXLAY];
                            for (int l = 0; l < s->nlay; l++, x /= 3) {
                                ch[l] = x % 3;
                                if (ch[l] == 1)
                                    use[s->lay_c[l]]++;
                                else if (ch[l] == 2)
                                    kk++;
                            }
                            for (int c = 0; c < 4; c++)
                                if (use[c] > cc[c])
                                    ok = 0;
                            if (!ok || kk > W)
                                continue;
                            int64_t score = (use[0] + use[1] + use[2] + use[3]) * rw + kk * ww;
                            int idx = kk;
                            for (int c = 0; c < 4; c++)
                                idx = idx * (MAXC + 2) + (contested[c] ? use[c] + 1 : 0);
                            int at = where[idx];
                            if (at < 0) {
                                if (pool_used >= POOL)
                                    return -1;
                                at = where[idx] = s->nopt++;
                                touched[ntouched++] = idx;
                                pool_used++;
                            } else if (s->opt[at].score >= score) {
                                continue;
                            }
                            Opt *o = &s->opt[at];
                            memset(o, 0, sizeof *o);
                            o->k = kk;
                            o->score = score;
                            for (int c = 0; c < 4; c++) {
                                o->g[c] = g[c];
                                if (use[c]) {
                                    o->face[o->nrem] = c * 13 + n;
                                    o->cnt[o->nrem++] = use[c];
                                }
                            }
                            o->knew = k;
                            memcpy(o->lay, ch, s->nlay);
                        }
                    }
    qsort(s->opt, s->nopt, sizeof(Opt), opt_cmp);
    return 0;
}

/* Every way to lay off onto a run end: j tiles outward (L2, L3 through the slot's length), each a
 * real tile of ``colour`` or an okey. -1 when the pool is full. */
static int run_gen(const Ctx *cx, Slot *s, int colour, const uint8_t *nums, int len, const uint8_t *counts,
                   int W, int pos, int k, int64_t score, uint16_t flags)
{
    if (pos == len)
        return 0;
    int x = nums[pos];
    for (int wild = 0; wild < 2; wild++) {
        if (wild ? k >= W : counts[colour * 13 + x] == 0)
            continue;
        if (pool_used >= POOL)
            return -1;
        Opt *o = &s->opt[s->nopt++];
        pool_used++;
        memset(o, 0, sizeof *o);
        uint16_t fl = flags | (uint16_t)(wild << pos);
        int64_t sc = score + (wild ? cx->aw * (x + 1) + cx->bw : cx->ar * (x + 1) + cx->br);
        o->k = k + wild;
        o->j = pos + 1;
        o->flags = fl;
        o->score = sc;
        for (int i = 0; i <= pos; i++)
            if (!(fl >> i & 1)) {
                o->face[o->nrem] = colour * 13 + nums[i];
                o->cnt[o->nrem++] = 1;
            }
        if (run_gen(cx, s, colour, nums, len, counts, W, pos + 1, k + wild, sc, fl))
            return -1;
    }
    return 0;
}

static int run_options(const Ctx *cx, Slot *s, int rs, int colour, const uint8_t *nums, int len,
                       const uint8_t *counts, int W)
{
    s->n = -1;
    s->rs = rs;
    s->nlay = 0;
    s->opt = &pool[pool_used];
    s->nopt = 0;
    if (pool_used >= POOL)
        return -1;
    memset(s->opt, 0, sizeof(Opt)); /* lay nothing */
    s->nopt = 1;
    pool_used++;
    if (run_gen(cx, s, colour, nums, len, counts, W, 0, 0, 0, 0))
        return -1;
    qsort(s->opt, s->nopt, sizeof(Opt), opt_cmp);
    return 0;
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
    Ctx cx;
    uint8_t counts[52];
    int W, req, nslots;
    Slot *slots;
    int64_t ww_max;
    int64_t bound[MAXSLOT + 1][NU];
    int64_t best_score;
    int path[MAXSLOT], best_path[MAXSLOT];
    int first, stop; /* first: stop at the first placement above the floor (a yes or no question) */
} Search;

static inline int64_t real_weight(const Ctx *cx, int face)
{
    return cx->ar * (face % 13 + 1) + cx->br;
}

static void dfs(Search *S, int i, int wused, int64_t score, int64_t tw, int req_done)
{
    int wrem = S->W - wused;
    if (S->stop)
        return;
    if (i == S->nslots) {
        int64_t b1 = S->bound[i][wrem], b2 = tw + wrem * S->ww_max;
        if (score + (b1 < b2 ? b1 : b2) <= S->best_score)
            return; /* the leaf cannot beat the best: its runs and pairs are bounded as above */
        int64_t vec[NU];
        leaf_vec(&S->cx, S->counts, wrem, req_done ? -1 : S->req, vec);
        if (vec[wrem] != NEG && score + vec[wrem] > S->best_score) {
            S->best_score = score + vec[wrem];
            memcpy(S->best_path, S->path, sizeof(int) * S->nslots);
            S->stop = S->first;
        }
        return;
    }
    int64_t b1 = S->bound[i][wrem], b2 = tw + wrem * S->ww_max;
    if (score + (b1 < b2 ? b1 : b2) <= S->best_score)
        return;
    Slot *s = &S->slots[i];
    for (int j = 0; j < s->nopt; j++) {
        Opt *o = &s->opt[j];
        if (o->k > wrem)
            continue;
        int ok = 1;
        for (int q = 0; q < o->nrem; q++)
            if (S->counts[o->face[q]] < o->cnt[q])
                ok = 0;
        if (!ok)
            continue;
        int64_t dtw = 0;
        int rd = req_done;
        for (int q = 0; q < o->nrem; q++) {
            S->counts[o->face[q]] -= o->cnt[q];
            dtw += o->cnt[q] * real_weight(&S->cx, o->face[q]);
            rd |= o->face[q] == S->req;
        }
        S->path[i] = j;
        dfs(S, i + 1, wused + o->k, score + o->score, tw - dtw, rd);
        for (int q = 0; q < o->nrem; q++)
            S->counts[o->face[q]] += o->cnt[q];
    }
}

/* The bounds (runs of the untouched rack plus the most the slots i.. add with w okeys), then the
 * branch and bound; ``tw`` is the weight of every real tile something could take. Only a
 * placement scoring above ``floor`` is looked for (NEG: any); best_score stays ``floor`` when
 * there is none, and is the best's score otherwise (a floor only prunes what cannot beat it). */
static void run_search_above(Search *S, int64_t tw, int64_t floor)
{
    const Ctx *cx = &S->cx;
    int W = S->W, nslots = S->nslots;
    S->best_score = floor;
    S->stop = 0;
    S->ww_max = cx->aw * 13 + cx->bw > cx->aw + cx->bw ? cx->aw * 13 + cx->bw : cx->aw + cx->bw;
    if (!nslots) {
        int64_t vec[NU];
        leaf_vec(cx, S->counts, W, S->req, vec);
        if (vec[W] > floor)
            S->best_score = vec[W];
        return;
    }
    int64_t root[NU], rest[MAXSLOT + 1][NU];
    leaf_vec(cx, S->counts, W, -1, root);
    for (int w = 0; w <= W; w++)
        rest[nslots][w] = 0;
    for (int i = nslots - 1; i >= 0; i--) {
        for (int w = 0; w <= W; w++)
            rest[i][w] = 0;
        for (int j = 0; j < S->slots[i].nopt; j++) {
            Opt *o = &S->slots[i].opt[j];
            for (int w = o->k; w <= W; w++)
                if (o->score + rest[i + 1][w - o->k] > rest[i][w])
                    rest[i][w] = o->score + rest[i + 1][w - o->k];
        }
    }
    for (int i = 0; i <= nslots; i++)
        for (int w = 0; w <= W; w++) {
            int64_t b = NEG;
            for (int x = 0; x <= w; x++)
                if (root[w - x] + rest[i][x] > b)
                    b = root[w - x] + rest[i][x];
            S->bound[i][w] = b;
        }
    dfs(S, 0, 0, 0, tw, S->req < 0);
}

static void run_search(Search *S, int64_t tw)
{
    S->first = 0;
    run_search_above(S, tw, NEG);
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
    int lo, hi;
    span(cnt, W, &lo, &hi);
    for (int i = hi; i >= lo; i--) {
        ch[i] = par[i][key];
        key = ch[i].parent;
    }
    int start[16], nok[16], okn[16][13], nopen = 0;
    for (int i = lo; i <= hi; i++) {
        int f = ch[i].f, p = ch[i].p, r = ch[i].r, k = ch[i].k;
        int reals_for_runs = f < r - p ? f : r - p;
        int pair_wild = k - (f - reals_for_runs);
        if (f < nopen) { /* close the earliest started (longest) runs */
            int e = nopen - f;
            for (int j = 0; j < e; j++)
                if (emit_run(runs, c, start[j], i - 1, okn[j], nok[j]))
                    return -1;
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
        for (int q = 0; q < p; q++)
            if (append(pairs, Py_BuildValue("(ii)", c * 13 + i, q < pair_wild ? 1 : 0)))
                return -1;
    }
    for (int j = 0; j < nopen; j++)
        if (emit_run(runs, c, start[j], hi, okn[j], nok[j]))
            return -1;
    return 0;
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
    int64_t vecs[5][NU];
    int alloc[5] = {0};
    int left = req_done ? -1 : req; /* the required face, if no slot option placed it */
    for (int c = 0; c < 4; c++)
        memcpy(vecs[c], colour_best(cx, S->counts + 13 * c, Wl, req_in(left, c)), sizeof(int64_t) * (Wl + 1));
    if (cx->pairs && Wl >= 2)
        pair_vec(cx, vecs[4], Wl);
    else
        for (int u = 0; u <= Wl; u++)
            vecs[4][u] = 0;
    if (!split(vecs, 5, 0, Wl, need, alloc)) {
        PyErr_SetString(PyExc_AssertionError, "kernel: okey split not found");
        goto done;
    }
    for (int c = 0; c < 4; c++)
        if (colour_plan(cx, S->counts + 13 * c, Wl, alloc[c], req_in(left, c), c, runs, pairs))
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

static int k_init(void)
{
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < NSTATE; i++)
            dpv[b][i] = NEG;
    return 0;
}

static PyMethodDef methods[] = {
    {"search", k_search, METH_VARARGS, "The best placement of a problem (see solver_core.search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "kernel", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_kernel(void)
{
    k_init();
    return PyModule_Create(&module);
}
