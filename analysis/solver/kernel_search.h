/* The placement search of the solver's kernel (kernel.c), without Python: the per-colour run and
 * pair DP and its memo, the slots, the branch and bound, and reading a plan back. kernel.c puts a
 * Python face on it; the evaluator's compiled rollout (analysis/evaluate/rollout.c) searches
 * with it directly. Everything is static: each includer gets its own copy of the tables. */
#ifndef ISTAKA_KERNEL_SEARCH_H
#define ISTAKA_KERNEL_SEARCH_H

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

#define MEMO_BITS 16
#define MEMO_SIZE (1 << MEMO_BITS)

typedef struct {
    uint64_t k;
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

/* Eight counts of 0..MAXC (one per byte) packed two bits each, in order: 16 bits. */
static inline uint64_t pack8(uint64_t x)
{
    x = (x | x >> 6) & UINT64_C(0x000F000F000F000F);
    x = (x | x >> 12) & UINT64_C(0x000000FF000000FF);
    return (x | x >> 24) & UINT64_C(0xFFFF);
}

/* colour_best of solver_core: the best with at most u okeys, u = 0..W. The key, one word: the 13
 * counts (0..MAXC, two bits each, as they lie in memory: two loads), then W, req and the runs and
 * pairs flags. */
static inline uint64_t colour_key(const Ctx *cx, const uint8_t *cnt, int W, int req)
{
    uint64_t a, b = 0;
    memcpy(&a, cnt, 8);
    memcpy(&b, cnt + 8, 5);
    return pack8(a) | pack8(b) << 16 | (uint64_t)W << 26 | (uint64_t)(req + 1) << 29 |
           (uint64_t)(cx->runs != 0) << 33 | (uint64_t)(cx->pairs != 0) << 34;
}

static const int64_t *colour_best(const Ctx *cx, const uint8_t *cnt, int W, int req)
{
    uint64_t k = colour_key(cx, cnt, W, req);
    uint64_t h = (k * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS);
    for (;;) {
        Memo *m = &memo[h];
        if (m->gen != gen)
            break;
        if (m->k == k)
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
    m->k = k;
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

/* The runs and pairs of four colours' answers ``cv`` (each the best with at most u okeys, NEG where
 * a colour cannot place its required face) with at most u okeys, u = 0..W. */
static void combine(const Ctx *cx, int64_t cv[4][NU], int W, int64_t *vec)
{
    if (W == 0) { /* no okey: a sum (the pairs' vector is 0 at u = 0) */
        int64_t v = 0;
        for (int c = 0; c < 4; c++) {
            if (cv[c][0] == NEG) {
                vec[0] = NEG;
                return;
            }
            v += cv[c][0];
        }
        vec[0] = v;
        return;
    }
    for (int u = 0; u <= W; u++)
        vec[u] = 0;
    for (int c = 0; c < 4; c++)
        conv(vec, vec, cv[c], W);
    if (cx->pairs && W >= 2) {
        int64_t pv[NU];
        pair_vec(cx, pv, W);
        conv(vec, vec, pv, W);
    }
}

/* Each colour's answer for ``counts`` with at most u okeys, u = 0..W, copied into ``cv`` (an answer
 * may live in a scratch row the next lookup overwrites). */
static void colour_answers(const Ctx *cx, const uint8_t *counts, int W, int req_face, int64_t cv[4][NU])
{
    for (int c = 0; c < 4; c++)
        memcpy(cv[c], colour_best(cx, counts + 13 * c, W, req_in(req_face, c)), sizeof(int64_t) * (W + 1));
}

/* Runs and pairs of the whole rack with at most u okeys, u = 0..W; req_face -1 when done. */
static void leaf_vec(const Ctx *cx, const uint8_t *counts, int W, int req_face, int64_t *vec)
{
    int64_t cv[4][NU];
    colour_answers(cx, counts, W, req_face, cv);
    combine(cx, cv, W, vec);
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
    uint8_t hreq;        /* set by the search: it places the required face */
    int64_t score;
    int64_t dtw;         /* set by the search: the weight of its real tiles */
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

/* Options best first, equal scores in the order they were made (the stable order glibc's qsort
 * gave them): an insertion sort, the lists being short. */
static void sort_opts(Opt *o, int n)
{
    for (int i = 1; i < n; i++) {
        if (o[i].score <= o[i - 1].score)
            continue;
        Opt x = o[i];
        int j = i;
        while (j > 0 && o[j - 1].score < x.score) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = x;
    }
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
    sort_opts(s->opt, s->nopt);
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
    sort_opts(s->opt, s->nopt);
    return 0;
}

/* Per colour, per number: could a real tile there join a run (some 3-window through it needs at
 * most W okeys)? As bit masks: bit s of ``ok`` is the window s, s+1, s+2 (s <= 10) with at most W
 * numbers missing; a present number is runnable when a window through it is. */
static inline unsigned runnable_mask(const uint8_t *cnt, int W)
{
    unsigned m = 0;
    for (int n = 0; n < 13; n++)
        m |= (unsigned)(cnt[n] != 0) << n;
    unsigned a = m, b = m >> 1, c = m >> 2, ok;
    if (W <= 0)
        ok = a & b & c;
    else if (W == 1)
        ok = (a & b) | (a & c) | (b & c);
    else if (W == 2)
        ok = a | b | c;
    else
        ok = 0x7FF;
    ok &= 0x7FF; /* windows start at 0..10 */
    return m & (ok | ok << 1 | ok << 2);
}

static void runnable(const uint8_t *cnt, int W, int *out)
{
    unsigned r = runnable_mask(cnt, W);
    for (int n = 0; n < 13; n++)
        out[n] = r >> n & 1;
}

/* ---- the search ---------------------------------------------------------------------------- */

typedef struct {
    Ctx cx;
    uint8_t counts[52];
    int W, req, nslots;
    Slot *slots;
    int64_t ww_max;
    int64_t bound[MAXSLOT + 1][NU];
    int64_t rest[MAXSLOT + 1][NU];
    int64_t cv[MAXSLOT + 1][4][NU]; /* per depth, each colour's runs and pairs of the counts left */
    int64_t best_score;
    int path[MAXSLOT], best_path[MAXSLOT];
    int first, stop; /* first: stop at the first placement above the floor (a yes or no question) */
} Search;

static inline int64_t real_weight(const Ctx *cx, int face)
{
    return cx->ar * (face % 13 + 1) + cx->br;
}

/* The runs and pairs of the colours' answers ``cv`` with at most ``w`` okeys: the tree's answers,
 * which require no face and so are never NEG (the sum without okeys needs no check). */
static inline int64_t cv_value(const Ctx *cx, int64_t cv[4][NU], int w)
{
    if (w == 0)
        return cv[0][0] + cv[1][0] + cv[2][0] + cv[3][0];
    int64_t vec[NU];
    combine(cx, cv, w, vec);
    return vec[w];
}

static void dfs(Search *S, int i, int wused, int64_t score, int64_t tw, int req_done)
{
    int wrem = S->W - wused;
    if (S->stop)
        return;
    int64_t (*cv)[NU] = S->cv[i];
    if (i == S->nslots) {
        int64_t b1 = S->bound[i][wrem], b2 = tw + wrem * S->ww_max;
        if (score + (b1 < b2 ? b1 : b2) <= S->best_score)
            return; /* the leaf cannot beat the best: its runs and pairs are bounded as above */
        int64_t v;
        if (req_done || S->req < 0) {
            v = cv_value(&S->cx, cv, wrem);
        } else {
            int64_t vec[NU];
            leaf_vec(&S->cx, S->counts, wrem, S->req, vec);
            v = vec[wrem];
        }
        if (v != NEG && score + v > S->best_score) {
            S->best_score = score + v;
            memcpy(S->best_path, S->path, sizeof(int) * S->nslots);
            S->stop = S->first;
        }
        return;
    }
    int64_t b1 = S->bound[i][wrem], b2 = tw + wrem * S->ww_max;
    if (score + (b1 < b2 ? b1 : b2) <= S->best_score)
        return;
    if (i > 0) {
        /* tighter: the runs and pairs of what is left now, beside the most the slots i.. add (more
         * slots only take tiles away, and a required face only narrows the runs) */
        int64_t b = NEG;
        for (int x = 0; x <= wrem; x++) {
            int64_t r = S->rest[i][x];
            if (r == NEG)
                continue;
            int64_t cur = cv_value(&S->cx, cv, wrem - x);
            if (cur + r > b)
                b = cur + r;
        }
        if (score + (b < b2 ? b : b2) <= S->best_score)
            return;
    }
    Slot *s = &S->slots[i];
    int64_t (*nx)[NU] = S->cv[i + 1];
    for (int j = 0; j < s->nopt; j++) {
        Opt *o = &s->opt[j];
        if (o->k > wrem)
            continue;
        int ok = 1;
        for (int q = 0; q < o->nrem && ok; q++)
            ok = S->counts[o->face[q]] >= o->cnt[q];
        if (!ok)
            continue;
        int touched = 0;
        for (int q = 0; q < o->nrem; q++) {
            S->counts[o->face[q]] -= o->cnt[q];
            touched |= 1 << (o->face[q] / 13);
        }
        for (int c = 0; c < 4; c++) {
            const int64_t *v = touched >> c & 1 ? colour_best(&S->cx, S->counts + 13 * c, S->W, -1) : cv[c];
            for (int u = 0; u < NU; u++) /* all NU (a fixed size the compiler unrolls): those past W unread */
                nx[c][u] = v[u];
        }
        S->path[i] = j;
        dfs(S, i + 1, wused + o->k, score + o->score, tw - o->dtw, req_done | o->hreq);
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
    int64_t root[NU];
    int64_t (*rest)[NU] = S->rest;
    colour_answers(cx, S->counts, W, -1, S->cv[0]); /* the root's answers, carried down the tree by dfs */
    combine(cx, S->cv[0], W, root);
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
    for (int i = 0; i < nslots; i++)
        for (int j = 0; j < S->slots[i].nopt; j++) {
            Opt *o = &S->slots[i].opt[j];
            o->dtw = 0;
            o->hreq = 0;
            for (int q = 0; q < o->nrem; q++) {
                o->dtw += o->cnt[q] * real_weight(cx, o->face[q]);
                o->hreq |= o->face[q] == S->req;
            }
        }
    dfs(S, 0, 0, 0, tw, S->req < 0);
}

static inline void run_search(Search *S, int64_t tw)
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

/* ---- a colour's runs and pairs, read back from the DP's parents ------------------------------ */

typedef struct {
    int (*run)(void *to, int c, int first, int last, const int *okeys, int n); /* okey numbers */
    int (*pair)(void *to, int face, int wild);                                  /* wild: okeys in it */
    void *to;
} Emit;

/* Emit the runs and pairs of colour c's best plan with at most u okeys; nonzero from an emitter
 * stops it (an error). The solver's Python answer and the rollout's Plan are both written so. */
static int colour_walk(const Ctx *cx, const uint8_t *cnt, int W, int u, int req, int c, const Emit *em)
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
                if (em->run(em->to, c, start[j], i - 1, okn[j], nok[j]))
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
            if (em->pair(em->to, c * 13 + i, q < pair_wild ? 1 : 0))
                return -1;
    }
    for (int j = 0; j < nopen; j++)
        if (em->run(em->to, c, start[j], hi, okn[j], nok[j]))
            return -1;
    return 0;
}

/* After the slots of the best path are taken from S->counts (``need``: the score left for the
 * runs and pairs, ``Wl`` okeys left, ``left`` the required face or -1): how many okeys each colour
 * (alloc[0..3]) and the okey pair (alloc[4]) get, and what each colour's share is worth (``val``:
 * 0 when it places nothing there, so its walk can be skipped). 0 when no split gives ``need``. */
static int split_rest(Search *S, int64_t need, int Wl, int left, int *alloc, int64_t *val)
{
    const Ctx *cx = &S->cx;
    int64_t vecs[5][NU];
    for (int i = 0; i < 5; i++)
        alloc[i] = 0;
    for (int c = 0; c < 4; c++)
        memcpy(vecs[c], colour_best(cx, S->counts + 13 * c, Wl, req_in(left, c)), sizeof(int64_t) * (Wl + 1));
    if (cx->pairs && Wl >= 2)
        pair_vec(cx, vecs[4], Wl);
    else
        for (int u = 0; u <= Wl; u++)
            vecs[4][u] = 0;
    if (!split(vecs, 5, 0, Wl, need, alloc))
        return 0;
    for (int c = 0; c < 4; c++)
        val[c] = vecs[c][alloc[c]];
    return 1;
}

/* Once, before the first search: the DP's rows start empty. */
static void kernel_init(void)
{
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < NSTATE; i++)
            dpv[b][i] = NEG;
}

#endif
