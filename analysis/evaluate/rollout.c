/* The compiled rollout model of the evaluator: the rest of a hand, played by the rules of
 * docs/rules.md and a simple policy, thousands of times a second.
 *
 * Why here and not inside the solver's kernel: the rollout is the evaluator's model (layer
 * ``evaluate``), the kernel is the solver's exact search (layer ``solver``). This file includes the
 * kernel's search (analysis/solver/kernel_search.h, the part of kernel.c without Python; one
 * translation unit, so the search runs without a Python call per turn) and keeps the game, the
 * policy and the trace apart from it.
 *
 * Tiles are codes 0-51 (faces, colour-major as Tile.index; a false okey is the okey's face, T5)
 * and 52 for a physical okey (wild, T4). A rack is 53 counts. A shown indicator twin (O7) is the
 * indicator's face in the rack and becomes wild only in its seat's pairs.
 *
 * play(base, racks, deck, mode, tile, trace) -> (v0, v1, v2, v3, result, trace bytes or None)
 *   base: int32 array (analysis/evaluate/fast.py packs it from a HandState: rules, table, turn,
 *   the careful seats and every discard pile);
 *   racks: 4 x 53 counts; deck: codes, first drawn first; mode: 0 play on, 1 draw first, 2 take
 *   first, 3 discard by the policy (the seat has placed), 4 discard ``tile``. v = hand score +
 *   in-game penalties of each seat (E4-E8, X2-X7, O8); result 1 finish, 2 exhausted, 3 void, 0 cut.
 *   The trace is int32 events (see fast.py) that a log writer turns into v1 log events.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <time.h>

#include "../solver/kernel_search.h"

#define WILD 52
#define MAXM 80
#define K1 (1 << 16)
#define K2 (1 << 6)

enum { EV_SHOW = 1, EV_DECLARE, EV_DRAW, EV_TAKE, EV_RETURN, EV_OPEN, EV_MELD, EV_LAYOFF, EV_SWAP,
       EV_DISCARD, EV_PENALTY, EV_END };
enum { RU_X2 = 2, RU_X3, RU_X4, RU_X5, RU_X6, RU_X7, RU_O8 };

typedef struct {
    int katlamali, open_points, open_pairs, pairs_escalating, gosterge, layoff_opening_turn, run_end_cap,
        declare_pairs, o9, siler, siler_points, siler_pairs, cezali, penalty_unit, x5, x5_factor, x6, x7,
        pairs_discard_takeable, unopened_penalty, okey_in_rack, finisher_bonus, e7, void_all_pairs, esli;
} Rules;
#define NRULES 25

typedef struct {
    int kind; /* -1 taken back, 0 run, 1 group, 2 pair */
    int owner;
    int a, lo, hi;      /* run: colour, lowest and highest number (0-based); group: number; pair: face */
    int endc[2];        /* run: tiles laid off at the low / high end this turn (L3) */
    int8_t phys[13];    /* run: by number; group: by colour (-1 absent); pair: [0], [1] */
    int8_t placer[13];
} TM;

typedef struct {
    Rules r;
    int oi, okn, ind;
    uint8_t rack[4][53];
    uint8_t deck[128];
    int nd, dp;
    int top[4], takeable;
    TM tab[MAXM];
    int nt;
    int opened[4], opval[4], declared[4], shown[4], started[4], pen[4];
    int turn, phase, took, took_unopened, otturn, placed, returned, took_used;
    int over, result, finisher, scores[4];
    int penr[4][RU_O8 + 1]; /* this play's penalties by rule (RU_*), for the parts of a value */
    int pts_ok; /* the last can_open found a points placement (in its plan) */
    int newtile;    /* the tile drawn or taken this turn */
    int careful;    /* seats whose discards avoid feeding the next seat's opening (bit per seat) */
    int deck0;      /* the deck's size at the deal (public): how late the hand is */
    uint8_t pile[4][53]; /* each seat's discard pile, by code (public; a taken tile leaves it) */
    int32_t *tr;
    int ntr, cap, tracing;
} G;

/* ---- trace ------------------------------------------------------------------------------------ */

static void tput(G *g, int32_t x)
{
    if (!g->tracing)
        return;
    if (g->ntr == g->cap) {
        int nc = g->cap ? g->cap * 2 : 1024;
        int32_t *p = realloc(g->tr, sizeof(int32_t) * nc);
        if (!p) {
            g->tracing = 0;
            return;
        }
        g->tr = p;
        g->cap = nc;
    }
    g->tr[g->ntr++] = x;
}

static void ev3(G *g, int type, int seat, int x)
{
    tput(g, type);
    tput(g, seat);
    tput(g, x);
}

static void penalty(G *g, int seat, int points, int rule)
{
    g->pen[seat] += points;
    g->penr[seat][rule] += points;
    tput(g, EV_PENALTY);
    tput(g, seat);
    tput(g, points);
    tput(g, rule);
}

/* ---- rules ------------------------------------------------------------------------------------ */

static int thr(const G *g, int seat, int kind)
{
    const Rules *r = &g->r;
    int base = kind == 1 ? r->open_points : r->open_pairs;
    int esc = kind == 1 ? r->katlamali : r->katlamali && r->pairs_escalating;
    if (!esc)
        return base;
    int partner = (seat + 2) % 4;
    if (r->esli && g->opened[partner])
        return base; /* O11 */
    int best = 0;
    for (int k = 0; k < 4; k++)
        if (k != seat && !(r->esli && k == partner) && g->opened[k] == kind && g->opval[k] > best)
            best = g->opval[k];
    return base > best + 1 ? base : best + 1; /* O2, O3 */
}

static int anyone_pairs(const G *g)
{
    for (int k = 0; k < 4; k++)
        if (g->opened[k] == 2)
            return 1;
    return 0;
}

static int others_open(const G *g, int p)
{
    for (int k = 0; k < 4; k++)
        if (k != p && g->opened[k])
            return 1;
    return 0;
}

static inline int fval(int f) { return f % 13 + 1; }

/* X4: the face fits a table meld (L2, ignoring L3 as the engine does). */
static int fits(const G *g, int f)
{
    int c = f / 13, n = f % 13;
    for (int i = 0; i < g->nt; i++) {
        const TM *m = &g->tab[i];
        if (m->kind == 0) {
            if (m->a == c && (n == m->lo - 1 || n == m->hi + 1))
                return 1;
        } else if (m->kind == 1) {
            if (m->a == n && m->phys[c] < 0) {
                int k = 0;
                for (int q = 0; q < 4; q++)
                    k += m->phys[q] >= 0;
                if (k < 4)
                    return 1;
            }
        }
    }
    return 0;
}

/* fits() of every face at once: out[f] is fits(g, f). */
static void fits_all(const G *g, uint8_t *out)
{
    memset(out, 0, 52);
    for (int i = 0; i < g->nt; i++) {
        const TM *m = &g->tab[i];
        if (m->kind == 0) {
            if (m->lo >= 1)
                out[m->a * 13 + m->lo - 1] = 1;
            if (m->hi <= 11)
                out[m->a * 13 + m->hi + 1] = 1;
        } else if (m->kind == 1) {
            int k = 0;
            for (int q = 0; q < 4; q++)
                k += m->phys[q] >= 0;
            if (k < 4)
                for (int c = 0; c < 4; c++)
                    if (m->phys[c] < 0)
                        out[c * 13 + m->a] = 1;
        }
    }
}

static int rack_n(const uint8_t *c)
{
    int n = 0;
    for (int f = 0; f < 53; f++)
        n += c[f];
    return n;
}

/* ---- hand end (E3-E8) ----------------------------------------------------------------------- */

static int rack_score(const G *g, int k, int mult)
{
    const uint8_t *c = g->rack[k];
    int v = c[WILD] * g->okn;
    for (int f = 0; f < 52; f++)
        v += c[f] * fval(f);
    if (g->opened[k] == 2)
        v *= 2;
    return v * mult + c[WILD] * g->r.okey_in_rack;
}

static void end_hand(G *g, int fin, int okey_last)
{
    const Rules *r = &g->r;
    g->over = 1;
    g->finisher = fin;
    int any = 0;
    for (int k = 0; k < 4; k++)
        any |= g->opened[k] != 0;
    if (fin < 0) {
        g->result = 2;
        for (int k = 0; k < 4; k++)
            g->scores[k] = !any ? 0 : !g->opened[k] ? r->unopened_penalty : rack_score(g, k, 1);
    } else {
        g->result = 1;
        int oth = others_open(g, fin);
        int ok = okey_last, elden = g->otturn && !oth, pairs = g->opened[fin] == 2;
        int fm, om;
        if (r->e7) {
            fm = (pairs ? 2 : 1) * (ok ? 2 : 1);
            om = fm * (oth ? 1 : 2);
        } else {
            fm = om = (ok ? 2 : 1) * (elden ? 2 : 1) * (pairs ? 2 : 1);
        }
        for (int k = 0; k < 4; k++) {
            if (k == fin)
                g->scores[k] = -r->finisher_bonus * fm;
            else if (r->esli && k == (fin + 2) % 4)
                g->scores[k] = 0; /* E8 */
            else if (!g->opened[k])
                g->scores[k] = r->unopened_penalty * om;
            else
                g->scores[k] = rack_score(g, k, om);
        }
    }
    tput(g, EV_END);
    tput(g, fin);
    tput(g, g->result);
    for (int k = 0; k < 4; k++)
        tput(g, g->scores[k]);
}

/* ---- the placement search: the kernel's branch and bound with the table's slots ---------------- */

/* A placement; entries past a cap are dropped (never met with 26 tiles: a rack holds at most 8
 * runs or groups), and ``used``/``value`` count only what is kept, so a plan is always legal. */
#define PCAP 16
#define LCAP 28
typedef struct {
    int64_t score;
    int16_t used, value;
    uint8_t nruns, ng, np, ngl, nrl;
    uint8_t rc[PCAP], ra[PCAP], rb[PCAP], rnok[PCAP], rok[PCAP][13];
    uint8_t gn[PCAP], gcol[PCAP][4], gnc[PCAP], gk[PCAP];
    int8_t pf[PCAP];
    uint8_t pw[PCAP]; /* pair: face (-1: two okeys), okeys in it */
    uint8_t glm[LCAP], glc[LCAP], glw[LCAP];
    uint8_t rlm[LCAP], rle[LCAP], rlj[LCAP];
    uint16_t rlf[LCAP];
} Plan;

static Search SS;
static Slot SLOTS[13 + MAXSLOT];
static int rs_meld[MAXSLOT], rs_end[MAXSLOT];

static void c_deal_groups(Plan *pl, int n, const uint8_t *gg, int k)
{
    int T = gg[0] + gg[1] + gg[2] + gg[3] + k;
    if (!T)
        return;
    int gmax = 0;
    for (int c = 0; c < 4; c++)
        if (gg[c] > gmax)
            gmax = gg[c];
    int m = gmax > (T + 3) / 4 ? gmax : (T + 3) / 4;
    int base = pl->ng, i = 0;
    if (base + m > PCAP)
        return;
    for (int j = 0; j < m; j++) {
        pl->gn[base + j] = n;
        pl->gnc[base + j] = 0;
        pl->gk[base + j] = 0;
    }
    for (int c = 0; c < 4; c++)
        for (int q = 0; q < gg[c]; q++, i++) {
            int j = base + i % m;
            pl->gcol[j][pl->gnc[j]++] = c;
        }
    for (int q = 0; q < k; q++) {
        int bj = base;
        for (int j = base; j < base + m; j++)
            if (pl->gnc[j] + pl->gk[j] < pl->gnc[bj] + pl->gk[bj])
                bj = j;
        pl->gk[bj]++;
    }
    pl->ng += m;
}

static int plan_run(void *to, int c, int first, int last, const int *okeys, int n)
{
    Plan *pl = to;
    if (pl->nruns >= PCAP)
        return 0; /* past the cap: dropped (see Plan) */
    int z = pl->nruns++;
    pl->rc[z] = (uint8_t)c;
    pl->ra[z] = (uint8_t)first;
    pl->rb[z] = (uint8_t)last;
    pl->rnok[z] = (uint8_t)n;
    for (int y = 0; y < n; y++)
        pl->rok[z][y] = (uint8_t)okeys[y];
    return 0;
}

static int plan_pair(void *to, int face, int wild)
{
    Plan *pl = to;
    if (pl->np < PCAP) {
        pl->pf[pl->np] = (int8_t)face;
        pl->pw[pl->np++] = (uint8_t)wild;
    }
    return 0;
}

static void c_colour_plan(const Ctx *cx, const uint8_t *cnt, int W, int u, int req, int c, Plan *pl)
{
    Emit em = {plan_run, plan_pair, pl};
    colour_walk(cx, cnt, W, u, req, c, &em);
}

static void c_plan(Search *S, Plan *pl)
{
    const Ctx *cx = &S->cx;
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
        if (!o->nrem && !o->k)
            continue;
        if (s->n >= 0) {
            for (int l = 0; l < s->nlay; l++)
                if (o->lay[l] && pl->ngl < LCAP) {
                    int z = pl->ngl++;
                    pl->glm[z] = s->lay_gs[l];
                    pl->glc[z] = s->lay_c[l];
                    pl->glw[z] = o->lay[l] == 2;
                }
            c_deal_groups(pl, s->n, o->g, o->knew);
        } else if (pl->nrl < LCAP) {
            int z = pl->nrl++;
            pl->rlm[z] = rs_meld[s->rs];
            pl->rle[z] = rs_end[s->rs];
            pl->rlj[z] = o->j;
            pl->rlf[z] = o->flags;
        }
    }
    int alloc[5];
    int64_t val[4];
    int left = req_done ? -1 : req;
    if (!split_rest(S, need, Wl, left, alloc, val))
        return;
    for (int c = 0; c < 4; c++)
        if (val[c]) /* else nothing of this colour is placed */
            c_colour_plan(cx, S->counts + 13 * c, Wl, alloc[c], req_in(left, c), c, pl);
    if (alloc[4] >= 2 && pl->np < PCAP) {
        pl->pf[pl->np] = -1;
        pl->pw[pl->np++] = 2;
    }
}

/* Counters for bench/evaluate.py (stats()): the kernel searches by kind, and the time spent in them
 * (monotonic clock, read twice a search: a few per cent of a search's cost) */
enum { SK_OPENING, SK_QUESTION, SK_OPENED, NSK };
static long n_turns, n_plays, n_hits, sk_n[NSK];
static int64_t sk_ns[NSK];

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int c_search_raw0(G *g, const uint8_t *cnt, int W, int runs_ok, int pairs_ok, int req, int slots, Plan *pl,
                         int64_t floor, int first);

/* A search, counted by kind: an opened seat's placing; an unopened seat's question (is there a
 * placing above the threshold: the take decision, a floor); an unopened seat's best placing. */
static int c_search_raw(G *g, const uint8_t *cnt, int W, int runs_ok, int pairs_ok, int req, int slots, Plan *pl,
                        int64_t floor, int first)
{
    int kind = g->opened[g->turn] ? SK_OPENED : floor > NEG ? SK_QUESTION : SK_OPENING;
    int64_t t0 = now_ns();
    int rc = c_search_raw0(g, cnt, W, runs_ok, pairs_ok, req, slots, pl, floor, first);
    sk_ns[kind] += now_ns() - t0;
    sk_n[kind]++;
    return rc;
}

/* The best placement of counts ``cnt`` (52 faces) with W okeys, table slots where ``slots``
 * (lay-offs, L1-L3), a required face ``req`` (P2). 0 and *pl filled, or -1 (nothing / req). */
static int c_search_raw0(G *g, const uint8_t *cnt, int W, int runs_ok, int pairs_ok, int req, int slots, Plan *pl,
                         int64_t floor, int first)
{
    Search *S = &SS;
    memset(pl, 0, sizeof *pl);
    memcpy(S->counts, cnt, 52);
    if (W > MAXW)
        W = MAXW;
    for (int f = 0; f < 52; f++)
        if (S->counts[f] > MAXC)
            S->counts[f] = MAXC;
    S->cx = (Ctx){K1 + K2, 1, K1, g->okn * K2 + 1, runs_ok, pairs_ok};
    S->W = W;
    S->req = req;
    memo_begin(&S->cx);
    pool_used = 0;
    const Ctx *cx = &S->cx;
    int nrs = 0, rs_colour[MAXSLOT], rs_len[MAXSLOT];
    uint8_t rs_nums[MAXSLOT][12];
    int nlay[13] = {0}, lay_gs[13][MAXLAY], lay_c[13][MAXLAY];
    if (slots) {
        for (int i = 0; i < g->nt; i++) {
            const TM *m = &g->tab[i];
            if (m->kind == 0) {
                for (int e = 0; e < 2 && nrs < MAXSLOT; e++) {
                    int len = e == 0 ? m->lo : 12 - m->hi;
                    if (g->r.run_end_cap) {
                        int room = 2 - m->endc[e];
                        if (len > room)
                            len = room;
                    }
                    if (len <= 0)
                        continue;
                    for (int q = 0; q < len; q++)
                        rs_nums[nrs][q] = (uint8_t)(e == 0 ? m->lo - 1 - q : m->hi + 1 + q);
                    rs_colour[nrs] = m->a;
                    rs_len[nrs] = len;
                    rs_meld[nrs] = i;
                    rs_end[nrs++] = e;
                }
            } else if (m->kind == 1) {
                int k = 0;
                for (int q = 0; q < 4; q++)
                    k += m->phys[q] >= 0;
                if (k >= 4)
                    continue;
                for (int c = 0; c < 4; c++)
                    if (m->phys[c] < 0 && nlay[m->a] < MAXLAY) {
                        lay_gs[m->a][nlay[m->a]] = i;
                        lay_c[m->a][nlay[m->a]++] = c;
                    }
            }
        }
    }
    int contested[13][4], run_ok[4][13];
    for (int c = 0; c < 4; c++) {
        if (runs_ok)
            runnable(S->counts + 13 * c, W, run_ok[c]);
        else
            memset(run_ok[c], 0, sizeof run_ok[c]);
    }
    for (int n = 0; n < 13; n++)
        for (int c = 0; c < 4; c++) {
            int x = S->counts[c * 13 + n];
            contested[n][c] = run_ok[c][n] || (pairs_ok && (x >= 2 || (x && W)));
        }
    for (int i = 0; i < nrs; i++)
        for (int q = 0; q < rs_len[i]; q++)
            contested[rs_nums[i][q]][rs_colour[i]] = 1;
    int nslots = 0;
    for (int n = 12; n >= 0; n--) {
        uint8_t cc[4];
        int present = 0, lay_any = 0;
        for (int c = 0; c < 4; c++) {
            cc[c] = S->counts[c * 13 + n];
            present += cc[c] > 0;
        }
        for (int l = 0; l < nlay[n]; l++)
            lay_any |= cc[lay_c[n][l]] > 0;
        int can_group = runs_ok && present && present >= 3 - W;
        int can_lay = nlay[n] && (W > 0 || lay_any);
        if (!can_group && !can_lay)
            continue;
        Slot *s = &SLOTS[nslots];
        s->nlay = nlay[n];
        memcpy(s->lay_gs, lay_gs[n], sizeof lay_gs[n]);
        memcpy(s->lay_c, lay_c[n], sizeof lay_c[n]);
        int mark = pool_used;
        if (number_options(cx, s, n, cc, W, contested[n], can_group))
            return -1;
        if (s->nopt > 1 || s->opt[0].score)
            nslots++;
        else
            pool_used = mark;
    }
    for (int i = 0; i < nrs && nslots < MAXSLOT; i++) {
        Slot *s = &SLOTS[nslots];
        int mark = pool_used;
        if (run_options(cx, s, i, rs_colour[i], rs_nums[i], rs_len[i], S->counts, W))
            return -1;
        if (s->nopt > 1)
            nslots++;
        else
            pool_used = mark;
    }
    S->slots = SLOTS;
    S->nslots = nslots;
    int slot_face[52] = {0};
    for (int i = 0; i < nslots; i++)
        for (int j = 0; j < SLOTS[i].nopt; j++)
            for (int q = 0; q < SLOTS[i].opt[j].nrem; q++)
                slot_face[SLOTS[i].opt[j].face[q]] = 1;
    int64_t tw = 0;
    for (int f = 0; f < 52; f++) {
        int x = S->counts[f];
        if (x && (run_ok[f / 13][f % 13] || slot_face[f] || (pairs_ok && (x >= 2 || W))))
            tw += x * real_weight(cx, f);
    }
    S->first = first;
    run_search_above(S, tw, floor);
    if (S->best_score <= NEG / 2 || S->best_score <= floor)
        return -1;
    pl->score = S->best_score;
    c_plan(S, pl);
    /* what it places and its value (O1: lay-offs count) */
    int used = 0, value = 0;
    for (int i = 0; i < pl->nruns; i++) {
        used += pl->rb[i] - pl->ra[i] + 1;
        value += (pl->ra[i] + pl->rb[i] + 2) * (pl->rb[i] - pl->ra[i] + 1) / 2;
    }
    for (int i = 0; i < pl->ng; i++) {
        used += pl->gnc[i] + pl->gk[i];
        value += (pl->gn[i] + 1) * (pl->gnc[i] + pl->gk[i]);
    }
    for (int i = 0; i < pl->ngl; i++) {
        used++;
        value += g->tab[pl->glm[i]].a + 1;
    }
    for (int i = 0; i < pl->nrl; i++) {
        const TM *m = &g->tab[pl->rlm[i]];
        used += pl->rlj[i];
        for (int q = 0; q < pl->rlj[i]; q++)
            value += pl->rle[i] == 0 ? m->lo - q : m->hi + 2 + q;
    }
    used += 2 * pl->np;
    pl->used = used;
    pl->value = value;
    return 0;
}

/* ---- a memo of searches: the candidates of one decision are played in the same worlds, so the
 * other seats meet the same racks and tables again until the candidates' games part --------- */

#define SMEMO_BITS 13
typedef struct {
    uint64_t key, tsig;
    int64_t floor;
    uint8_t cnt[52];
    int8_t W, req, flags, ok;
    Plan pl;
} SMemo;
static SMemo smemo[1 << SMEMO_BITS];

/* What the slots of the table are: each meld's index, kind, ends, cap and missing colours. */
static uint64_t table_sig(const G *g)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(g->okn * 131 + g->r.run_end_cap);
    for (int i = 0; i < g->nt; i++) {
        const TM *m = &g->tab[i];
        uint64_t x = (uint64_t)(m->kind + 2);
        if (m->kind == 0)
            x = x * 1000003 + (uint64_t)(m->a * 2197 + m->lo * 169 + m->hi * 13 + m->endc[0] * 3 + m->endc[1]);
        else if (m->kind == 1)
            x = x * 1000003 + (uint64_t)(m->a * 16 + (m->phys[0] >= 0) + 2 * (m->phys[1] >= 0) +
                                         4 * (m->phys[2] >= 0) + 8 * (m->phys[3] >= 0));
        h = (h ^ (x + (uint64_t)i * 0x9E3779B97F4A7C15ULL)) * 1099511628211ULL;
    }
    return h;
}

static int layable_fit(const G *g, const uint8_t *c, int f, const uint8_t *fit);

/* Without okeys, a tile that no run (a 3-window of present faces), group (three colours at its
 * number), pair or lay-off could take is dead: the search places it nowhere, and its placing is
 * the same with it or without it. ``live`` gets the counts without the dead tiles (the required
 * face kept), so racks that differ only in dead tiles share a memo entry. */
static const uint8_t *live_counts(const G *g, const uint8_t *cnt, int W, int runs_ok, int pairs_ok, int req,
                                  int slots, uint8_t *live)
{
    if (W)
        return cnt;
    int run_ok[4][13];
    uint8_t c53[53], fit[52];
    if (slots) {
        memcpy(c53, cnt, 52);
        c53[WILD] = 0;
        fits_all(g, fit);
    }
    for (int col = 0; col < 4; col++)
        runnable(cnt + 13 * col, 0, run_ok[col]);
    for (int f = 0; f < 52; f++) {
        int x = cnt[f], n = f % 13;
        live[f] = (uint8_t)x;
        if (!x || f == req || (pairs_ok && x >= 2))
            continue;
        if (runs_ok && (run_ok[f / 13][n] || (cnt[n] > 0) + (cnt[13 + n] > 0) + (cnt[26 + n] > 0) + (cnt[39 + n] > 0) >= 3))
            continue;
        if (slots && layable_fit(g, c53, f, fit))
            continue;
        live[f] = 0;
    }
    return live;
}

static int c_search(G *g, const uint8_t *cnt0, int W, int runs_ok, int pairs_ok, int req, int slots, Plan *pl,
                    int64_t floor, int first)
{
    uint8_t live[52];
    const uint8_t *cnt = live_counts(g, cnt0, W, runs_ok, pairs_ok, req, slots, live);
    uint64_t tsig = slots ? table_sig(g) : (uint64_t)g->okn;
    int flags = runs_ok | pairs_ok << 1 | slots << 2 | first << 3;
    uint64_t h = tsig * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(W * 131 + (req + 2) * 7 + flags) ^ (uint64_t)floor;
    for (int f = 0; f < 52; f++)
        h = (h ^ cnt[f]) * 1099511628211ULL;
    SMemo *e = &smemo[h >> (64 - SMEMO_BITS)];
    if (e->key == h && e->tsig == tsig && e->W == W && e->req == req && e->flags == flags && e->floor == floor &&
        !memcmp(e->cnt, cnt, 52)) {
        n_hits++;
        if (e->ok)
            *pl = e->pl;
        return e->ok ? 0 : -1;
    }
    int rc = c_search_raw(g, cnt, W, runs_ok, pairs_ok, req, slots, pl, floor, first);
    e->key = h;
    e->floor = floor;
    e->tsig = tsig;
    e->W = (int8_t)W;
    e->req = (int8_t)req;
    e->flags = (int8_t)flags;
    memcpy(e->cnt, cnt, 52);
    e->ok = rc == 0;
    if (rc == 0)
        e->pl = *pl;
    return rc;
}

/* The same, keeping a tile to discard (P5): where everything fits, the best of leaving out each
 * distinct tile, cheapest first, while one can still win. */
static int search_keep_above(G *g, const uint8_t *c53, int runs_ok, int pairs_ok, int req, int slots, Plan *pl,
                             int64_t floor, int first)
{
    uint8_t cnt[52];
    memcpy(cnt, c53, 52);
    int W = c53[WILD];
    int n = rack_n(c53);
    if (c_search(g, cnt, W, runs_ok, pairs_ok, req, slots, pl, floor, first) < 0)
        return -1;
    if (pl->used < n)
        return 0;
    static Plan best, tmp;
    int have = 0;
    int done[53] = {0};
    for (int round = 0; round < 53; round++) {
        /* the cheapest tile not tried yet */
        int bf = -1, bw = 1 << 30;
        for (int f = 0; f < 53; f++) {
            if (done[f] || !c53[f])
                continue;
            int w = f == WILD ? 13 * K1 + g->okn * K2 + 1 : (K1 + K2) * fval(f) + 1;
            if (w < bw) {
                bw = w;
                bf = f;
            }
        }
        if (bf < 0)
            break;
        done[bf] = 1;
        if (have && pl->score - bw <= best.score)
            break;
        int w2 = W;
        if (bf == WILD)
            w2--;
        else
            cnt[bf]--;
        int rq = req == bf && cnt[bf] == 0 ? -2 : req;
        int ok = rq != -2 && c_search(g, cnt, w2, runs_ok, pairs_ok, rq, slots, &tmp, floor, first) == 0;
        if (bf != WILD)
            cnt[bf]++;
        if (ok && (!have || tmp.score > best.score)) {
            best = tmp;
            have = 1;
        }
    }
    if (!have)
        return -1;
    *pl = best;
    return 0;
}

static int search_keep(G *g, const uint8_t *c53, int runs_ok, int pairs_ok, int req, int slots, Plan *pl)
{
    return search_keep_above(g, c53, runs_ok, pairs_ok, req, slots, pl, NEG, 0);
}

/* ---- placing on the table ------------------------------------------------------------------ */

static void put_tile(G *g, int phys, int face)
{
    tput(g, phys);
    tput(g, face);
}

static int new_meld(G *g, int kind, int owner)
{
    TM *m = &g->tab[g->nt];
    memset(m, 0, sizeof *m);
    memset(m->phys, -1, sizeof m->phys);
    memset(m->placer, -1, sizeof m->placer);
    m->kind = kind;
    m->owner = owner;
    return g->nt++;
}

/* Runs and groups of ``pl`` as one open/meld event; pairs of ``pl`` as one meld event. */
static void lay_melds(G *g, int p, const Plan *pl, int type)
{
    uint8_t *c = g->rack[p];
    int nm = pl->nruns + pl->ng;
    if (nm && g->nt + nm <= MAXM) {
        tput(g, type);
        tput(g, p);
        tput(g, 0);
        tput(g, nm);
        for (int i = 0; i < pl->nruns; i++) {
            int col = pl->rc[i], a = pl->ra[i], b = pl->rb[i];
            int mi = new_meld(g, 0, p);
            TM *m = &g->tab[mi];
            m->a = col;
            m->lo = a;
            m->hi = b;
            tput(g, b - a + 1);
            if (type == EV_MELD && g->otturn && g->opened[p] == 1)
                g->opval[p] += (a + b + 2) * (b - a + 1) / 2; /* O1: the same opening */
            for (int x = a; x <= b; x++) {
                int wild = 0;
                for (int q = 0; q < pl->rnok[i]; q++)
                    wild |= pl->rok[i][q] == x;
                int face = col * 13 + x, phys = wild ? WILD : face;
                c[phys]--;
                m->phys[x] = (int8_t)phys;
                m->placer[x] = (int8_t)p;
                put_tile(g, phys, face);
            }
        }
        for (int i = 0; i < pl->ng; i++) {
            int n = pl->gn[i];
            int mi = new_meld(g, 1, p);
            TM *m = &g->tab[mi];
            m->a = n;
            int has[4] = {0};
            for (int q = 0; q < pl->gnc[i]; q++)
                has[pl->gcol[i][q]] = 1;
            int k = pl->gk[i];
            tput(g, pl->gnc[i] + k);
            if (type == EV_MELD && g->otturn && g->opened[p] == 1)
                g->opval[p] += (n + 1) * (pl->gnc[i] + k);
            for (int col = 0; col < 4; col++) {
                int face = col * 13 + n, phys;
                if (has[col])
                    phys = face;
                else if (k > 0) {
                    phys = WILD;
                    k--;
                } else
                    continue;
                c[phys]--;
                m->phys[col] = (int8_t)phys;
                m->placer[col] = (int8_t)p;
                put_tile(g, phys, face);
            }
        }
    }
    if (pl->np && g->nt + pl->np <= MAXM) {
        tput(g, EV_MELD);
        tput(g, p);
        tput(g, 1);
        tput(g, pl->np);
        for (int i = 0; i < pl->np; i++) {
            int f = pl->pf[i], w = pl->pw[i];
            int face = f < 0 ? g->oi : f;
            int mi = new_meld(g, 2, p);
            TM *m = &g->tab[mi];
            m->a = face;
            tput(g, 2);
            for (int q = 0; q < 2; q++) {
                int phys = q < 2 - w ? face : WILD;
                if (f < 0)
                    phys = WILD;
                c[phys]--;
                m->phys[q] = (int8_t)phys;
                m->placer[q] = (int8_t)p;
                put_tile(g, phys, face);
            }
        }
    }
}

static void lay_offs(G *g, int p, const Plan *pl)
{
    uint8_t *c = g->rack[p];
    int otpoints = g->otturn && g->opened[p] == 1;
    for (int i = 0; i < pl->ngl; i++) {
        TM *m = &g->tab[pl->glm[i]];
        int col = pl->glc[i], face = col * 13 + m->a, phys = pl->glw[i] ? WILD : face;
        if (m->phys[col] >= 0)
            continue;
        c[phys]--;
        m->phys[col] = (int8_t)phys;
        m->placer[col] = (int8_t)p;
        if (otpoints)
            g->opval[p] += m->a + 1; /* O1 */
        tput(g, EV_LAYOFF);
        tput(g, p);
        tput(g, pl->glm[i]);
        tput(g, 1);
        put_tile(g, phys, face);
    }
    for (int i = 0; i < pl->nrl; i++) {
        TM *m = &g->tab[pl->rlm[i]];
        int e = pl->rle[i], j = pl->rlj[i];
        tput(g, EV_LAYOFF);
        tput(g, p);
        tput(g, pl->rlm[i]);
        tput(g, j);
        for (int q = 0; q < j; q++) {
            int x = e == 0 ? m->lo - 1 : m->hi + 1;
            int face = m->a * 13 + x, phys = pl->rlf[i] >> q & 1 ? WILD : face;
            c[phys]--;
            m->phys[x] = (int8_t)phys;
            m->placer[x] = (int8_t)p;
            if (e == 0)
                m->lo = x;
            else
                m->hi = x;
            if (otpoints)
                g->opval[p] += x + 1;
            put_tile(g, phys, face);
        }
        m->endc[e] += j;
    }
}

/* Lay off every real tile that fits, highest first, keeping a tile (P5), by L2 and L3: the best
 * placing when the rack holds no okey and nothing else could be placed (no meld, no pair). */
static void greedy_layoffs(G *g, int p)
{
    uint8_t *c = g->rack[p];
    static Plan one; /* lay_offs reads only its first lay-off's fields */
    int left = rack_n(c);
    for (;;) {
        int hit = 0;
        for (int n = 12; n >= 0 && !hit && left > 1; n--)
            for (int col = 0; col < 4 && !hit; col++) {
                int f = col * 13 + n;
                if (!c[f])
                    continue;
                for (int i = 0; i < g->nt && !hit; i++) {
                    const TM *m = &g->tab[i];
                    int end = -1;
                    if (m->kind == 0 && m->a == col) {
                        int cap = g->r.run_end_cap;
                        if (n == m->lo - 1 && (!cap || m->endc[0] < 2))
                            end = 0;
                        else if (n == m->hi + 1 && (!cap || m->endc[1] < 2))
                            end = 1;
                        if (end >= 0) {
                            one.ngl = 0;
                            one.nrl = 1;
                            one.rlm[0] = (uint8_t)i;
                            one.rle[0] = (uint8_t)end;
                            one.rlj[0] = 1;
                            one.rlf[0] = 0;
                            hit = 1;
                        }
                    } else if (m->kind == 1 && m->a == n && m->phys[col] < 0) {
                        int k = (m->phys[0] >= 0) + (m->phys[1] >= 0) + (m->phys[2] >= 0) + (m->phys[3] >= 0);
                        if (k < 4) {
                            one.nrl = 0;
                            one.ngl = 1;
                            one.glm[0] = (uint8_t)i;
                            one.glc[0] = (uint8_t)col;
                            one.glw[0] = 0;
                            hit = 1;
                        }
                    }
                }
            }
        if (!hit)
            return;
        lay_offs(g, p, &one);
        left--;
    }
}

/* ---- pairs (O3, O4, O7, L5): natural pairs, then wild + the highest singles ------------------- */

typedef struct {
    int n, face[32], wild[32][2]; /* wild: 0 real, 1 okey, 2 twin, per tile */
} PPlan;

static void pairs_plan(const G *g, int p, int req, PPlan *pp)
{
    uint8_t c[53];
    memcpy(c, g->rack[p], 53);
    int size = rack_n(c);
    int twin = g->shown[p] && g->ind != g->oi && c[g->ind] > 0;
    int okeys = c[WILD];
    if (twin)
        c[g->ind]--;
    pp->n = 0;
    int wl = okeys + twin;
#define ADD(f, w0, w1)                                                      \
    do {                                                                    \
        pp->face[pp->n] = (f);                                              \
        pp->wild[pp->n][0] = (w0);                                          \
        pp->wild[pp->n++][1] = (w1);                                        \
    } while (0)
#define TAKE_WILD() (okeys > 0 ? (okeys--, 1) : (twin--, 2))
    if (req >= 0 && req < 52) {
        if (c[req] >= 2) {
            c[req] -= 2;
            ADD(req, 0, 0);
        } else if (c[req] == 1 && wl > 0) {
            c[req]--;
            wl--;
            ADD(req, 0, TAKE_WILD());
        } else
            return; /* the taken tile makes no pair */
    }
    for (int n = 12; n >= 0; n--)
        for (int col = 0; col < 4; col++) {
            int f = col * 13 + n;
            while (c[f] >= 2 && pp->n < 32) {
                c[f] -= 2;
                ADD(f, 0, 0);
            }
        }
    for (int n = 12; n >= 0 && wl > 0; n--)
        for (int col = 0; col < 4 && wl > 0; col++) {
            int f = col * 13 + n;
            if (c[f] == 1 && pp->n < 32) {
                c[f]--;
                wl--;
                ADD(f, 0, TAKE_WILD());
            }
        }
    while (wl >= 2 && pp->n < 32) {
        wl -= 2;
        int a = TAKE_WILD(), b = TAKE_WILD();
        ADD(g->oi, a, b);
    }
#undef ADD
#undef TAKE_WILD
    while (2 * pp->n >= size && pp->n > 0)
        pp->n--; /* P5: keep a tile (the last pairs are the cheapest) */
}

static void lay_pairs(G *g, int p, const PPlan *pp, int type)
{
    if (!pp->n || g->nt + pp->n > MAXM)
        return;
    uint8_t *c = g->rack[p];
    if (type == EV_MELD && g->otturn && g->opened[p] == 2)
        g->opval[p] += pp->n; /* O3: the same opening */
    tput(g, type);
    tput(g, p);
    tput(g, 1);
    tput(g, pp->n);
    for (int i = 0; i < pp->n; i++) {
        int face = pp->face[i];
        int mi = new_meld(g, 2, p);
        TM *m = &g->tab[mi];
        m->a = face;
        tput(g, 2);
        for (int q = 0; q < 2; q++) {
            int w = pp->wild[i][q];
            int phys = w == 1 ? WILD : w == 2 ? g->ind : face;
            c[phys]--;
            m->phys[q] = (int8_t)phys;
            m->placer[q] = (int8_t)p;
            put_tile(g, phys, face);
        }
    }
}

/* E3: the fourth pairs opener voids the hand at once; nobody is scored. */
static int maybe_void(G *g)
{
    if (!g->r.void_all_pairs)
        return 0;
    for (int k = 0; k < 4; k++)
        if (g->opened[k] != 2)
            return 0;
    g->over = 1;
    g->result = 3;
    g->finisher = -1;
    for (int k = 0; k < 4; k++) {
        g->scores[k] = 0;
        g->pen[k] = 0;
    }
    memset(g->penr, 0, sizeof g->penr);
    tput(g, EV_END);
    tput(g, -1);
    tput(g, 3);
    for (int k = 0; k < 4; k++)
        tput(g, 0);
    return 1;
}

/* ---- okey swaps (S1-S3, X6) ------------------------------------------------------------------ */

static void swaps(G *g, int p)
{
    uint8_t *c = g->rack[p];
    const Rules *r = &g->r;
    for (int i = 0; i < g->nt; i++) {
        TM *m = &g->tab[i];
        if (m->kind < 0)
            continue;
        if (m->kind == 1) {
            int wild = 0, ok = 1, k = 0;
            for (int col = 0; col < 4; col++) {
                int ph = m->phys[col];
                k += ph >= 0;
                wild |= ph == WILD && m->placer[col] != (r->esli ? (p + 2) % 4 : -9);
                if ((ph < 0 || ph == WILD) && !c[col * 13 + m->a])
                    ok = 0;
            }
            if (!wild || !ok || rack_n(c) < 2)
                continue;
            (void)k;
            /* S2: every missing colour and every okey's colour put in */
            int given[4], ng = 0;
            for (int col = 0; col < 4; col++) {
                int ph = m->phys[col];
                if (ph < 0 || ph == WILD) {
                    int f = col * 13 + m->a;
                    given[ng++] = f;
                    c[f]--;
                    if (ph == WILD) {
                        c[WILD]++;
                        if (r->cezali && r->x6 && m->placer[col] != p)
                            penalty(g, m->placer[col], r->penalty_unit, RU_X6);
                    }
                    m->phys[col] = (int8_t)f;
                    m->placer[col] = (int8_t)p;
                }
            }
            tput(g, EV_SWAP);
            tput(g, p);
            tput(g, i);
            tput(g, ng);
            for (int q = 0; q < ng; q++)
                tput(g, given[q]);
            continue;
        }
        int nslot = m->kind == 0 ? 13 : 2;
        for (int x = 0; x < nslot; x++) {
            if (m->phys[x] != WILD)
                continue;
            int face = m->kind == 0 ? m->a * 13 + x : m->a;
            if (!c[face])
                continue;
            if (r->esli && m->placer[x] == (p + 2) % 4)
                continue; /* X6 would hit the own team */
            c[face]--;
            c[WILD]++;
            if (r->cezali && r->x6 && m->placer[x] != p)
                penalty(g, m->placer[x], r->penalty_unit, RU_X6);
            m->phys[x] = (int8_t)face;
            m->placer[x] = (int8_t)p;
            tput(g, EV_SWAP);
            tput(g, p);
            tput(g, i);
            tput(g, 1);
            tput(g, face);
        }
    }
}

/* ---- the policy: each function reads only seat p's rack, the table and public counts ------------ */

static int pairs_allowed(const G *g, int p)
{
    return !(g->r.declare_pairs && !g->declared[p]);
}

static int o9_ok(const G *g, int p)
{
    return g->r.o9 == 2 || (g->r.o9 == 1 && !others_open(g, p));
}

/* Would the unopened seat p open now (with ``req`` placed)? 1 points, 2 pairs, 0 no. */
/* Could a lay-off start at face f: it fits a run end or a group now, or lies beyond a run end
 * with the faces between in the rack or covered by okeys (L2, L3)? */
static int layable_fit(const G *g, const uint8_t *c, int f, const uint8_t *fit)
{
    if (fit ? fit[f] : fits(g, f))
        return 1;
    int col = f / 13, x = f % 13, W = c[WILD];
    for (int i = 0; i < g->nt; i++) {
        const TM *m = &g->tab[i];
        if (m->kind != 0 || m->a != col)
            continue;
        int lo = m->lo, hi = m->hi, miss = 0;
        if (x < lo - 1) {
            for (int y = x + 1; y < lo; y++)
                miss += !c[col * 13 + y];
            if (miss <= W && (!g->r.run_end_cap || lo - x + m->endc[0] <= 2))
                return 1;
        } else if (x > hi + 1) {
            for (int y = hi + 1; y < x; y++)
                miss += !c[col * 13 + y];
            if (miss <= W && (!g->r.run_end_cap || x - hi + m->endc[1] <= 2))
                return 1;
        }
    }
    return 0;
}

static int layable(const G *g, const uint8_t *c, int f)
{
    return layable_fit(g, c, f, NULL);
}

/* An upper bound on a points opening of the rack (O1): every tile a run, a group or (``slots``)
 * a lay-off could take, at its value, okeys at 13; ``stuck``: the tiles nothing could take. */
static int open_bound(const G *g, const uint8_t *c, int slots, int *stuck)
{
    int W = c[WILD], run_ok[4][13], ub = 13 * W;
    uint8_t cnt[52];
    for (int f = 0; f < 52; f++)
        cnt[f] = c[f] > MAXC ? MAXC : c[f];
    for (int col = 0; col < 4; col++)
        runnable(cnt + 13 * col, W, run_ok[col]);
    *stuck = 0;
    uint8_t fit[52];
    if (slots)
        fits_all(g, fit);
    for (int f = 0; f < 52; f++) {
        if (!c[f])
            continue;
        int n = f % 13, cols = (c[n] > 0) + (c[13 + n] > 0) + (c[26 + n] > 0) + (c[39 + n] > 0);
        if (run_ok[f / 13][n] || cols + W >= 3 || (slots && layable_fit(g, c, f, fit)))
            ub += c[f] * (n + 1);
        else
            *stuck += c[f];
    }
    return ub;
}

/* ``yes_no``: only whether it opens matters (a take's question), not the plan of a rack that
 * does not: then the search looks only for placings worth the threshold and stops at the first
 * (a points search's score is at least K1 times its points, exactly so without pairs: K2 times
 * the faces and the tile count stay below K1), unless O9 would let it open below the threshold.
 * A first placing without a meld is searched again in full (an opening holds a meld). */
static int can_open_q(G *g, int p, int req, Plan *pl, PPlan *pp, int yes_no)
{
    int n = rack_n(g->rack[p]);
    int slots = g->r.layoff_opening_turn && g->nt > 0;
    int stuck, ub = open_bound(g, g->rack[p], slots, &stuck);
    if (ub < thr(g, p, 1) && !(stuck <= 1 && o9_ok(g, p)))
        g->pts_ok = 0; /* no placement can reach the threshold (nor finish, O9) */
    else if (yes_no && !o9_ok(g, p)) {
        g->pts_ok = search_keep_above(g, g->rack[p], 1, 0, req, slots, pl, (int64_t)thr(g, p, 1) * K1 - 1, 1) == 0;
        if (g->pts_ok && pl->nruns + pl->ng == 0)
            g->pts_ok = search_keep(g, g->rack[p], 1, 0, req, slots, pl) == 0;
    } else
        g->pts_ok = search_keep(g, g->rack[p], 1, 0, req, slots, pl) == 0;
    if (g->pts_ok && pl->nruns + pl->ng > 0) {
        if (pl->value >= thr(g, p, 1) || (n - pl->used == 1 && o9_ok(g, p)))
            return 1;
    }
    if (pairs_allowed(g, p)) {
        pairs_plan(g, p, req, pp);
        if (pp->n >= thr(g, p, 2))
            return 2;
    }
    return 0;
}

static int can_open(G *g, int p, int req, Plan *pl, PPlan *pp)
{
    return can_open_q(g, p, req, pl, pp, 0);
}

static int connected(const uint8_t *c, int t)
{
    int n = t % 13;
    if ((n >= 1 && c[t - 1]) || (n <= 11 && c[t + 1]) || (n >= 2 && c[t - 2]) || (n <= 10 && c[t + 2]))
        return 1;
    int k = 0;
    for (int col = 0; col < 4; col++)
        k += c[col * 13 + n] > 0;
    return k >= 2 || c[t] > 0;
}

static int makes_meld(const uint8_t *c, int t)
{
    int n = t % 13;
    if (n >= 2 && c[t - 1] && c[t - 2])
        return 1;
    if (n >= 1 && n <= 11 && c[t - 1] && c[t + 1])
        return 1;
    if (n <= 10 && c[t + 1] && c[t + 2])
        return 1;
    int k = 0;
    for (int col = 0; col < 4; col++)
        k += col * 13 + n != t && c[col * 13 + n];
    return k >= 2;
}

static int wants(G *g, int p, int t)
{
    uint8_t *c = g->rack[p];
    if (g->opened[p] == 1)
        return fits(g, t) || makes_meld(c, t) || (c[WILD] && connected(c, t));
    if (g->opened[p] == 2)
        return c[t] == 1 || fits(g, t);
    if (!connected(c, t) && !c[WILD])
        return 0;
    static Plan pl;
    static PPlan pp;
    c[t]++;
    int k = can_open_q(g, p, t, &pl, &pp, 1);
    c[t]--;
    return k != 0;
}

static int takeable_tile(const G *g, int p)
{
    int prev = (p + 3) % 4;
    if (g->returned || g->takeable != prev || g->top[prev] < 0 || g->top[prev] == WILD)
        return -1; /* P1, P2, P3 */
    if (g->opened[prev] == 2 && !g->r.pairs_discard_takeable)
        return -1; /* P4 */
    return g->top[prev];
}

static void do_draw(G *g, int p)
{
    int x = g->deck[g->dp++];
    g->newtile = x;
    g->rack[p][x]++;
    g->phase = 1;
    g->takeable = -1;
    g->started[p] = 1;
    ev3(g, EV_DRAW, p, x);
}

static void do_take(G *g, int p, int t)
{
    int prev = (p + 3) % 4;
    g->rack[p][t]++;
    g->newtile = t;
    g->top[prev] = -1; /* the pile below is not modelled: nobody takes it again (P1) */
    g->pile[prev][t]--;
    g->took = t;
    g->took_unopened = !g->opened[p];
    g->phase = 1;
    g->takeable = -1;
    g->started[p] = 1;
    ev3(g, EV_TAKE, p, t);
}

static void do_return(G *g, int p)
{
    int prev = (p + 3) % 4, t = g->took;
    g->rack[p][t]--;
    g->top[prev] = t;
    g->pile[prev][t]++;
    g->takeable = prev;
    g->took = -1;
    g->took_unopened = 0;
    g->returned = 1;
    g->phase = 0;
    ev3(g, EV_RETURN, p, t);
}

static void start_of_turn(G *g, int p)
{
    const Rules *r = &g->r;
    uint8_t *c = g->rack[p];
    if (r->gosterge && !g->started[p] && !g->shown[p] && g->ind != g->oi && c[g->ind]) {
        g->shown[p] = 1; /* O7 */
        ev3(g, EV_SHOW, p, g->ind);
    }
    if (r->declare_pairs && !g->declared[p] && !g->opened[p]) {
        int pairs = 0;
        for (int f = 0; f < 52; f++)
            pairs += c[f] >> 1;
        if (pairs + c[WILD] >= r->open_pairs - 1) {
            g->declared[p] = 1; /* O10 */
            tput(g, EV_DECLARE);
            tput(g, p);
            tput(g, 0);
        }
    }
}

/* Open or place for seat p in phase play; ``loose`` gets the counts outside the opening being
 * built (unopened and not opening). */
static void place(G *g, int p, uint8_t *loose)
{
    static Plan pl;
    static PPlan pp;
    uint8_t *c = g->rack[p];
    memcpy(loose, c, 53);
    if (!g->opened[p]) {
        int req = g->took >= 0 && g->took_unopened ? g->took : -1;
        int k = can_open(g, p, req, &pl, &pp);
        if (!k && req >= 0) {
            do_return(g, p); /* P2: it cannot open with the tile: give it back and draw */
            do_draw(g, p);
            memcpy(loose, c, 53);
            k = can_open(g, p, -1, &pl, &pp);
        }
        if (k == 1) {
            g->opened[p] = 1;
            g->opval[p] = 0;
            g->otturn = 1;
            Plan mel = pl;
            mel.ngl = mel.nrl = 0;
            int v = 0;
            for (int i = 0; i < pl.nruns; i++)
                v += (pl.ra[i] + pl.rb[i] + 2) * (pl.rb[i] - pl.ra[i] + 1) / 2;
            for (int i = 0; i < pl.ng; i++)
                v += (pl.gn[i] + 1) * (pl.gnc[i] + pl.gk[i]);
            g->opval[p] = v;
            lay_melds(g, p, &mel, EV_OPEN);
            lay_offs(g, p, &pl);
        } else if (k == 2) {
            g->opened[p] = 2;
            g->opval[p] = pp.n;
            g->otturn = 1;
            lay_pairs(g, p, &pp, EV_OPEN);
            if (maybe_void(g))
                return;
            if (g->r.layoff_opening_turn && search_keep(g, c, 0, 0, -1, 1, &pl) == 0)
                lay_offs(g, p, &pl); /* O4: they add nothing to the opening */
        } else {
            if (g->pts_ok) {
                /* loose: what the best melds (of the opening search) leave */
                for (int i = 0; i < pl.nruns; i++)
                    for (int x = pl.ra[i]; x <= pl.rb[i]; x++) {
                        int f = pl.rc[i] * 13 + x, w = 0;
                        for (int q = 0; q < pl.rnok[i]; q++)
                            w |= pl.rok[i][q] == x;
                        if (w) {
                            if (loose[WILD])
                                loose[WILD]--;
                        } else if (loose[f])
                            loose[f]--;
                    }
                for (int i = 0; i < pl.ng; i++) {
                    for (int q = 0; q < pl.gnc[i]; q++) {
                        int f = pl.gcol[i][q] * 13 + pl.gn[i];
                        if (loose[f])
                            loose[f]--;
                    }
                    for (int q = 0; q < pl.gk[i] && loose[WILD]; q++)
                        loose[WILD]--;
                }
            }
            return;
        }
        return;
    }
    /* opened: at a turn's start, or on in the opening turn (a position cut mid-turn) */
    if (rack_n(c) <= 1) {
        memcpy(loose, c, 53);
        return; /* P5: the last tile is the discard */
    }
    int lay = !g->otturn || g->r.layoff_opening_turn; /* L6 */
    int req = g->took >= 0 && g->took_unopened && !g->took_used ? g->took : -1; /* P2 */
    if (!g->otturn)
        swaps(g, p);
    int pairs_ok = anyone_pairs(g) && !g->otturn; /* O3: never mixed */
    if (g->opened[p] == 1) {
        /* without an okey, a run, group or pair is either in the rack now (a full 3-window, three
         * colours at a number, two copies) or nowhere; then laying off all that fits, greedily, is
         * the best placing, and the kernel is not needed */
        int melds = g->otturn || req >= 0 || c[WILD];
        if (!melds) {
            uint8_t cnt[52];
            int run_ok[4][13];
            for (int f = 0; f < 52; f++)
                cnt[f] = c[f] > MAXC ? MAXC : c[f];
            for (int col = 0; col < 4 && !melds; col++) {
                runnable(cnt + 13 * col, 0, run_ok[col]);
                for (int n = 0; n < 13 && !melds; n++)
                    melds = run_ok[col][n];
            }
            for (int n = 0; n < 13 && !melds; n++)
                melds = (c[n] > 0) + (c[13 + n] > 0) + (c[26 + n] > 0) + (c[39 + n] > 0) >= 3;
            for (int f = 0; f < 52 && !melds && pairs_ok; f++)
                melds = c[f] >= 2;
        }
        if (!melds) {
            if (lay)
                greedy_layoffs(g, p);
        } else if (search_keep(g, c, 1, pairs_ok, req, lay, &pl) == 0) {
            lay_melds(g, p, &pl, EV_MELD);
            if (lay)
                lay_offs(g, p, &pl);
        }
    } else {
        pairs_plan(g, p, req, &pp);
        lay_pairs(g, p, &pp, EV_MELD);
        int any = c[WILD] > 0; /* a lay-off starts at a tile that fits, or an okey */
        for (int f = 0; f < 52 && !any; f++)
            any = c[f] && layable(g, c, f);
        if (lay && any && !c[WILD])
            greedy_layoffs(g, p);
        else if (lay && any && search_keep(g, c, 0, 0, -1, 1, &pl) == 0)
            lay_offs(g, p, &pl);
    }
    memcpy(loose, c, 53);
}

/* X5 as a careful seat p sees it, from its own view only (its rack, the table, every discard
 * pile, the deck count; never another rack): the key a discard of each face adds where the next
 * seat is unopened and could take it (P1, P4) and open with it. A face's danger is the number of
 * meld shapes it completes with tiles p has not seen: runs (f-2 f-1, f-1 f+1, f+1 f+2) and a group
 * (two or three other colours at its number, one shape less than the colours); none for a face the
 * next seat passed (it lies in p's pile: the next seat drew instead of taking it) or threw itself.
 * Weighted by what X5 would cost (the tile's value) and by how late the hand is: the later, the
 * closer an unopened rack is to its opening. Returns 0 where X5 cannot arise (*dk untouched). */
#define DANGER_W 20   /* key per shape and point of value at the deal (a use unit is 100) */
#define DANGER_LATE 2 /* ... rising to (1 + DANGER_LATE) times that when the deck is empty */
static int x5_danger(const G *g, int p, long *dk)
{
    const Rules *r = &g->r;
    int nxt = (p + 1) % 4;
    if (!(g->careful >> p & 1) || !r->cezali || !r->x5 || g->opened[nxt] || g->dp >= g->nd)
        return 0; /* no X5 here, the next seat has opened, or the hand ends at this discard (E2) */
    if (g->opened[p] == 2 && !r->pairs_discard_takeable)
        return 0; /* P4: nobody takes a pairs opener's discard */
    int seen[53];
    const uint8_t *c = g->rack[p];
    for (int f = 0; f < 53; f++)
        seen[f] = c[f] + g->pile[0][f] + g->pile[1][f] + g->pile[2][f] + g->pile[3][f];
    for (int i = 0; i < g->nt; i++) {
        const TM *m = &g->tab[i];
        if (m->kind < 0)
            continue;
        for (int x = 0; x < 13; x++)
            if (m->phys[x] >= 0)
                seen[m->phys[x]]++;
    }
    int u[52];
    for (int f = 0; f < 52; f++)
        u[f] = seen[f] < 2;
    int left = g->nd - g->dp, d0 = g->deck0 > left ? g->deck0 : left;
    long late = 256 + (d0 > 0 ? 256L * DANGER_LATE * (d0 - left) / d0 : 0);
    for (int f = 0; f < 52; f++) {
        dk[f] = 0;
        if (!c[f] || g->pile[p][f] || g->pile[nxt][f])
            continue;
        int col = f / 13, n = f % 13;
        int a1 = n >= 1 && u[f - 1], a2 = n >= 2 && u[f - 2], b1 = n <= 11 && u[f + 1], b2 = n <= 10 && u[f + 2];
        int shapes = (a2 && a1) + (a1 && b1) + (b1 && b2);
        int oc = 0;
        for (int k = 0; k < 4; k++)
            oc += k != col && u[k * 13 + n];
        if (oc >= 2)
            shapes += oc - 1;
        dk[f] = (long)shapes * (n + 1) * DANGER_W * late / 256;
    }
    return 1;
}

/* The least useful tile: never the okey while another exists (X3), no tile that fits the table
 * (X4), outside the melds being built, few neighbours; low first unopened, high once opened; a
 * careful seat (the default) also weighs the danger of feeding the next seat's opening (X5, see
 * x5_danger), below X3, X4 and the melds being built. */
static int choose_discard(G *g, int p, const uint8_t *loose)
{
    const uint8_t *c = g->rack[p];
    int sign = g->opened[p] ? -1 : 1;
    int best = -1;
    long bkey = 1L << 60;
    long dk[52];
    int danger = x5_danger(g, p, dk);
    uint8_t fit[52];
    fits_all(g, fit);
    for (int f = 0; f < 52; f++) {
        int k = c[f];
        if (!k)
            continue;
        int n = f % 13;
        long use = k >= 2 ? (g->opened[p] == 2 ? 0 : 1) : 0;
        if (g->opened[p] != 2) {
            if (n >= 1 && c[f - 1])
                use += 3;
            if (n >= 2 && c[f - 2])
                use += 1;
            if (n <= 11 && c[f + 1])
                use += 3;
            if (n <= 10 && c[f + 2])
                use += 1;
            int gg = (c[n] > 0) + (c[13 + n] > 0) + (c[26 + n] > 0) + (c[39 + n] > 0) - 1;
            use += 2 * gg;
        } else if (k >= 2)
            use += 6;
        long key = use * 100 + 50 + sign * n;
        if (danger)
            key += dk[f] < 90000 ? dk[f] : 90000;
        if (fit[f])
            key += 1000000;
        if (!loose[f])
            key += 100000;
        if (key < bkey) {
            bkey = key;
            best = f;
        }
    }
    return best < 0 ? WILD : best;
}

static void do_discard(G *g, int p, int t)
{
    const Rules *r = &g->r;
    uint8_t *c = g->rack[p];
    c[t]--;
    int fin = rack_n(c) == 0;
    int prev = (p + 3) % 4;
    if (g->otturn && g->opened[p]) {
        int op = g->opened[p], v = g->opval[p];
        if (r->siler && ((op == 1 && v >= r->siler_points) || (op == 2 && v >= r->siler_pairs)))
            penalty(g, p, -r->penalty_unit, RU_O8);
        if (g->took >= 0 && g->took_unopened && r->cezali && r->x5)
            penalty(g, prev, r->x5_factor * fval(g->took), RU_X5);
    }
    ev3(g, EV_DISCARD, p, t);
    if (!fin && r->cezali) {
        if (t == WILD)
            penalty(g, p, r->penalty_unit, RU_X3);
        else if (fits(g, t))
            penalty(g, p, r->penalty_unit, RU_X4);
    }
    g->started[p] = 1;
    if (fin) {
        end_hand(g, p, t == WILD);
        return;
    }
    g->top[p] = t;
    g->pile[p][t]++;
    g->takeable = p;
    if (g->dp >= g->nd) {
        end_hand(g, -1, 0);
        return;
    }
    g->turn = (p + 1) % 4;
    g->phase = 0;
    g->took = -1;
    g->took_unopened = g->otturn = g->placed = g->returned = 0;
    for (int i = 0; i < g->nt; i++)
        g->tab[i].endc[0] = g->tab[i].endc[1] = 0;
}

static void policy_discard(G *g, int p, const uint8_t *loose)
{
    uint8_t *c = g->rack[p];
    int t;
    if (rack_n(c) == 1) {
        t = 0;
        while (!c[t])
            t++;
    } else
        t = choose_discard(g, p, loose);
    do_discard(g, p, t);
}

static void play_turn(G *g, int mode, int tile)
{
    n_turns++;
    int p = g->turn;
    uint8_t loose[53];
    if (g->phase == 0) {
        start_of_turn(g, p);
        int t = takeable_tile(g, p);
        if (mode == 2 && t >= 0)
            do_take(g, p, t);
        else if (mode != 1 && t >= 0 && wants(g, p, t))
            do_take(g, p, t);
        else
            do_draw(g, p);
    } else if (!g->started[p])
        start_of_turn(g, p);
    if (mode == 4 && tile >= 0 && tile < 53 && g->rack[p][tile]) {
        do_discard(g, p, tile);
        return;
    }
    if (mode == 3 || (g->placed && !g->opened[p])) {
        memcpy(loose, g->rack[p], 53);
        if (!g->opened[p]) {
            static Plan pl;
            static PPlan pp;
            (void)pp;
            if (search_keep(g, g->rack[p], 1, 0, -1, 0, &pl) == 0) {
                for (int i = 0; i < pl.nruns; i++)
                    for (int x = pl.ra[i]; x <= pl.rb[i]; x++) {
                        int f = pl.rc[i] * 13 + x;
                        if (loose[f])
                            loose[f]--;
                    }
                for (int i = 0; i < pl.ng; i++)
                    for (int q = 0; q < pl.gnc[i]; q++) {
                        int f = pl.gcol[i][q] * 13 + pl.gn[i];
                        if (loose[f])
                            loose[f]--;
                    }
            }
        }
    } else {
        place(g, p, loose);
        if (g->over)
            return;
    }
    policy_discard(g, p, loose);
}

/* ---- Python entry ---------------------------------------------------------------------------- */

static G GG;

static int parse_base(G *g, const int32_t *b, Py_ssize_t n)
{
    Py_ssize_t i = 0;
#define NEXT() (i < n ? b[i++] : (bad = 1, 0))
    int bad = 0;
    int *rp = (int *)&g->r;
    for (int k = 0; k < NRULES; k++)
        rp[k] = NEXT();
    g->oi = NEXT();
    g->ind = NEXT();
    g->okn = g->oi % 13 + 1;
    g->turn = NEXT();
    g->phase = NEXT();
    g->took = NEXT();
    g->took_unopened = NEXT();
    g->otturn = NEXT();
    g->placed = NEXT();
    g->returned = NEXT();
    g->took_used = NEXT();
    g->takeable = NEXT();
    for (int k = 0; k < 4; k++)
        g->top[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->opened[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->opval[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->declared[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->shown[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->started[k] = NEXT();
    for (int k = 0; k < 4; k++)
        g->pen[k] = NEXT();
    int nt = NEXT();
    if (bad || nt < 0 || nt > MAXM - 20)
        return -1;
    g->nt = 0;
    for (int j = 0; j < nt; j++) {
        int kind = NEXT(), owner = NEXT(), cnt = NEXT(), e0 = NEXT(), e1 = NEXT();
        int mi = new_meld(g, kind, owner);
        TM *m = &g->tab[mi];
        m->endc[0] = e0;
        m->endc[1] = e1;
        if (cnt < 0 || cnt > 13)
            return -1;
        for (int q = 0; q < cnt; q++) {
            int ph = NEXT(), face = NEXT(), pl = NEXT();
            if (bad || face < 0 || face > 51)
                return -1;
            if (kind == 0) {
                int x = face % 13;
                if (q == 0) {
                    m->a = face / 13;
                    m->lo = x;
                }
                m->hi = x;
                m->phys[x] = (int8_t)ph;
                m->placer[x] = (int8_t)pl;
            } else if (kind == 1) {
                m->a = face % 13;
                m->phys[face / 13] = (int8_t)ph;
                m->placer[face / 13] = (int8_t)pl;
            } else if (kind == 2) {
                m->a = face;
                m->phys[q & 1] = (int8_t)ph;
                m->placer[q & 1] = (int8_t)pl;
            }
        }
    }
    g->careful = NEXT();
    g->deck0 = NEXT();
    for (int k = 0; k < 4; k++)
        for (int f = 0; f < 53; f++) {
            int x = NEXT();
            bad |= x < 0 || x > 8;
            g->pile[k][f] = (uint8_t)x;
        }
#undef NEXT
    return bad ? -1 : 0;
}

static PyObject *last_parts(const G *g);

/* Load the base state, racks and deck into GG and play the rest of the hand by the model; -1 with
 * a ValueError set when they are malformed. */
static int run_play(Py_buffer *base, Py_buffer *racks, Py_buffer *deck, int mode, int tile, int trace)
{
    G *g = &GG;
    int bad = racks->len != 4 * 53 || deck->len > 128 || base->len % 4;
    if (!bad) {
        memset(g->tab, 0, sizeof g->tab);
        bad = parse_base(g, (const int32_t *)base->buf, base->len / 4) < 0;
    }
    if (!bad) {
        memcpy(g->rack, racks->buf, 4 * 53);
        memcpy(g->deck, deck->buf, (size_t)deck->len);
        g->nd = (int)deck->len;
        g->dp = 0;
        for (int k = 0; k < 4; k++)
            for (int f = 0; f < 53; f++)
                bad |= g->rack[k][f] > 4;
        for (int q = 0; q < g->nd; q++)
            bad |= g->deck[q] > 52;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "crollout: bad base state, racks (4 x 53 counts) or deck");
        return -1;
    }
    n_plays++;
    g->newtile = -1;
    g->over = g->result = 0;
    g->finisher = -1;
    memset(g->scores, 0, sizeof g->scores);
    memset(g->penr, 0, sizeof g->penr);
    g->tracing = trace;
    g->ntr = 0;
    if (g->phase == 2) {
        g->over = 1;
    }
    int guard = 0;
    if (!g->over && !(g->phase == 0 && g->dp >= g->nd)) {
        play_turn(g, mode, tile);
        while (!g->over && guard++ < 400) {
            if (g->dp >= g->nd && g->phase == 0)
                break; /* cannot happen by the rules (E1); a guard */
            play_turn(g, 0, -1);
        }
    }
    return 0;
}

static PyObject *r_play(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer base, racks, deck;
    int mode, tile, trace, parts = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*iip|p", &base, &racks, &deck, &mode, &tile, &trace, &parts))
        return NULL;
    int rc = run_play(&base, &racks, &deck, mode, tile, trace);
    PyBuffer_Release(&base);
    PyBuffer_Release(&racks);
    PyBuffer_Release(&deck);
    if (rc < 0)
        return NULL;
    G *g = &GG;
    int v[4];
    for (int k = 0; k < 4; k++)
        v[k] = g->scores[k] + g->pen[k];
    PyObject *tr;
    if (trace) {
        tr = PyBytes_FromStringAndSize((const char *)g->tr, (Py_ssize_t)g->ntr * 4);
        if (!tr)
            return NULL;
    } else {
        tr = Py_None;
        Py_INCREF(tr);
    }
    if (parts) {
        PyObject *pp = last_parts(g);
        if (!pp) {
            Py_DECREF(tr);
            return NULL;
        }
        return Py_BuildValue("(iiiiiNN)", v[0], v[1], v[2], v[3], g->result, tr, pp);
    }
    return Py_BuildValue("(iiiiiN)", v[0], v[1], v[2], v[3], g->result, tr);
}

/* value_parts(base, racks, deck, mode, tile, spec): one play, and the seat's value with its parts
 * as fast.Position.parts builds them from play(..., parts=True), in one call. ``spec``: (seat,
 * partners, paid before the decision, the seat's own penalties at the start, whether the next
 * seat was unopened, then what the candidate's own events charged by rule: X2 X3 X4 X5 X6 X7 O8).
 * Returns (value, (hand, paid, X2 .. O8, finish, next opens, next finishes, own)). */
#define NPR (RU_O8 - RU_X2 + 1)
static PyObject *r_value_parts(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer base, racks, deck;
    int mode, tile, s, esli, before, own0, nxt_unopened, extra[NPR];
    if (!PyArg_ParseTuple(args, "y*y*y*ii(iiiiiiiiiiii)", &base, &racks, &deck, &mode, &tile, &s, &esli, &before,
                          &own0, &nxt_unopened, &extra[0], &extra[1], &extra[2], &extra[3], &extra[4], &extra[5],
                          &extra[6]))
        return NULL;
    int rc = s < 0 || s > 3 ? -2 : run_play(&base, &racks, &deck, mode, tile, 0);
    PyBuffer_Release(&base);
    PyBuffer_Release(&racks);
    PyBuffer_Release(&deck);
    if (rc == -2)
        PyErr_SetString(PyExc_ValueError, "value_parts: a seat is 0-3");
    if (rc < 0)
        return NULL;
    const G *g = &GG;
    int mate = (s + 2) % 4, nxt = (s + 1) % 4;
    int value = g->scores[s] + g->pen[s] + (esli ? g->scores[mate] + g->pen[mate] : 0);
    int finish = g->finisher == s, opens = nxt_unopened && g->opened[nxt] != 0, nfin = g->finisher == nxt;
    int p[NPR + 2], own = 0;
    if (g->result == 3) { /* E3 during the play: nobody is scored, penalties struck too */
        return Py_BuildValue("(i(iiiiiiiiiiiii))", value, 0, 0, 0, 0, 0, 0, 0, 0, 0, finish, opens, nfin, 0);
    }
    p[0] = g->scores[s] + (esli ? g->scores[mate] : 0);
    p[1] = before;
    int sum = p[0] + p[1], mine = 0;
    for (int i = 0; i < NPR; i++) {
        p[2 + i] = extra[i] + g->penr[s][RU_X2 + i] + (esli ? g->penr[mate][RU_X2 + i] : 0);
        mine += g->penr[s][RU_X2 + i];
        sum += p[2 + i];
    }
    if (sum != value) { /* the model's value is its scores plus every penalty: never apart */
        PyErr_Format(PyExc_AssertionError, "rollout parts add up to %d, not to the value %d", sum, value);
        return NULL;
    }
    own = g->scores[s] + own0 + mine;
    return Py_BuildValue("(i(iiiiiiiiiiiii))", value, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], finish,
                         opens, nfin, own);
}

/* The parts of the last play's values: (scores[4], result, finisher, opened[4], penalties by rule:
 * 4 seats x (X2, X3, X4, X5, X6, X7, O8) charged during the play, the base state's own not counted).
 * play(..., parts=True) returns them with its values, in the same call: threads share this state. */
static PyObject *last_parts(const G *g)
{
    PyObject *pen = PyTuple_New(4 * (RU_O8 - RU_X2 + 1));
    if (!pen)
        return NULL;
    int i = 0;
    for (int k = 0; k < 4; k++)
        for (int u = RU_X2; u <= RU_O8; u++)
            PyTuple_SET_ITEM(pen, i++, PyLong_FromLong(g->penr[k][u]));
    return Py_BuildValue("((iiii)ii(iiii)N)", g->scores[0], g->scores[1], g->scores[2], g->scores[3], g->result,
                         g->finisher, g->opened[0], g->opened[1], g->opened[2], g->opened[3], pen);
}

static PyObject *r_stats(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    PyObject *o = Py_BuildValue("{s:l,s:l,s:l,s:l,s:{s:l,s:l,s:l},s:{s:d,s:d,s:d}}", "searches", sk_n[SK_OPENING] + sk_n[SK_QUESTION] + sk_n[SK_OPENED], "turns",
                                n_turns, "plays", n_plays, "memo_hits", n_hits, "by_kind", "opening", sk_n[SK_OPENING],
                                "question", sk_n[SK_QUESTION], "opened", sk_n[SK_OPENED], "seconds", "opening",
                                sk_ns[SK_OPENING] / 1e9, "question", sk_ns[SK_QUESTION] / 1e9, "opened",
                                sk_ns[SK_OPENED] / 1e9);
    n_turns = n_plays = n_hits = 0;
    memset(sk_n, 0, sizeof sk_n);
    memset(sk_ns, 0, sizeof sk_ns);
    return o;
}

/* ---- worlds drawn as Python's random.shuffle draws them ---------------------------------------

   draws(state, pool, base, dest, n): n worlds as core.CodeWorlds.draw gives them, one after the
   other from a random.Random whose state is ``state`` (its getstate()[1]: 624 words and the
   position): each shuffles a copy of ``pool`` (the unseen tiles' codes) exactly as
   random.shuffle does (Fisher-Yates from the end, each index by _randbelow: getrandbits of the
   bound's bit length, drawn again while too large; getrandbits(k <= 32) is the next Mersenne
   Twister word shifted right by 32 - k), adds the first len(dest) codes to ``base`` (4 x 53
   counts) at the offsets ``dest`` (a seat's 53 x seat) and keeps the rest as the deck. Returns (the new state tuple,
   [(racks, deck), ...]); the caller gives the state back to its generator (setstate). */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} MT;

static uint32_t mt_next(MT *r)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[MT_N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[MT_N - 1] = r->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static uint32_t mt_below(MT *r, uint32_t n) /* random._randbelow_with_getrandbits, n >= 1 */
{
    int k = 0;
    for (uint32_t v = n; v; v >>= 1)
        k++;
    uint32_t x = mt_next(r) >> (32 - k);
    while (x >= n)
        x = mt_next(r) >> (32 - k);
    return x;
}

static double mt_random(MT *r) /* random.random(): genrand_res53 */
{
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static void mt_shuffle(MT *r, unsigned char *p, Py_ssize_t np) /* random.shuffle */
{
    for (Py_ssize_t i = np - 1; i >= 1; i--) {
        uint32_t j = mt_below(r, (uint32_t)(i + 1));
        unsigned char t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

static int mt_load(MT *r, PyObject *state, const char *who) /* a random.Random state's words and position */
{
    for (int i = 0; i <= MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return -1;
        if (i < MT_N)
            r->mt[i] = (uint32_t)v;
        else
            r->index = (int)v;
    }
    if (r->index < 0 || r->index > MT_N) {
        PyErr_Format(PyExc_ValueError, "%s: the state's position is out of range", who);
        return -1;
    }
    return 0;
}

static PyObject *mt_state(const MT *r) /* the state tuple random.Random.setstate takes back */
{
    PyObject *st = PyTuple_New(MT_N + 1);
    if (st == NULL)
        return NULL;
    for (int i = 0; i < MT_N; i++)
        PyTuple_SET_ITEM(st, i, PyLong_FromUnsignedLong(r->mt[i]));
    PyTuple_SET_ITEM(st, MT_N, PyLong_FromLong(r->index));
    return st;
}

static PyObject *r_draws(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *state;
    Py_buffer pool, base, dest;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Oy*y*y*n", &state, &pool, &base, &dest, &n))
        return NULL;
    PyObject *out = NULL, *worlds = NULL;
    MT r;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1 || base.len != 4 * 53 || pool.len > 256 ||
        dest.len > pool.len || n < 0) {
        PyErr_SetString(PyExc_ValueError, "draws: a random.Random state (625 words), 212 counts, a pool of at most "
                                          "256 codes and no more offsets than codes");
        goto done;
    }
    for (Py_ssize_t i = 0; i < pool.len; i++)
        if (((const unsigned char *)pool.buf)[i] >= 53) {
            PyErr_SetString(PyExc_ValueError, "draws: a tile code is 0-52");
            goto done;
        }
    for (Py_ssize_t i = 0; i < dest.len; i++)
        if (((const unsigned char *)dest.buf)[i] > 3 * 53) {
            PyErr_SetString(PyExc_ValueError, "draws: an offset is a seat's, 0, 53, 106 or 159");
            goto done;
        }
    if (mt_load(&r, state, "draws") < 0)
        goto done;
    worlds = PyList_New(n);
    if (worlds == NULL)
        goto done;
    const unsigned char *src = pool.buf, *b0 = base.buf, *off = dest.buf;
    Py_ssize_t np = pool.len, nd = dest.len;
    unsigned char p[256], racks[4 * 53];
    for (Py_ssize_t w = 0; w < n; w++) {
        memcpy(p, src, (size_t)np);
        mt_shuffle(&r, p, np);
        memcpy(racks, b0, sizeof racks);
        for (Py_ssize_t i = 0; i < nd; i++)
            racks[off[i] + p[i]] += 1;
        PyObject *pair = Py_BuildValue("(y#y#)", (const char *)racks, (Py_ssize_t)sizeof racks,
                                       (const char *)(p + nd), np - nd);
        if (pair == NULL)
            goto done;
        PyList_SET_ITEM(worlds, w, pair);
    }
    PyObject *st = mt_state(&r);
    if (st == NULL)
        goto done;
    out = Py_BuildValue("(NO)", st, worlds);
done:
    Py_XDECREF(worlds);
    PyBuffer_Release(&pool);
    PyBuffer_Release(&base);
    PyBuffer_Release(&dest);
    return out;
}

/* ---- worlds dealt from the direct reading (analysis/evaluate/reading.py deal_one) ---------------

   deal(state, pool, base, free, mult, n): n worlds as reading.deal_one deals them, one after the
   other from the random.Random whose state is ``state`` (as in draws): each shuffles a copy of
   ``pool`` as random.shuffle does, then deals its codes in that order: code c goes to seat s with
   weight free places left in s x mult[s][c] (``free``: 4 counts; ``mult``: 4 x 53 doubles), to the
   deck with weight its places left, by one random.random() (two Mersenne Twister words, 53 bits)
   times the weights' sum, added in the same order as the Python reference so that both pick the
   same seat; a draw that rounding carries past every weight with no deck place left goes to the
   last seat with room. The deck's codes are then shuffled again (random.shuffle). Returns (the new
   state tuple, [(racks, deck), ...]). */

static PyObject *r_deal(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *state;
    Py_buffer pool, base, free_, mult;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Oy*y*y*y*n", &state, &pool, &base, &free_, &mult, &n))
        return NULL;
    PyObject *out = NULL, *worlds = NULL;
    MT r;
    const unsigned char *fr = free_.buf;
    int places = 0;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1 || base.len != 4 * 53 || pool.len > 256 ||
        free_.len != 4 || mult.len != 4 * 53 * (Py_ssize_t)sizeof(double) || n < 0) {
        PyErr_SetString(PyExc_ValueError, "deal: a random.Random state (625 words), 212 counts, a pool of at most "
                                          "256 codes, 4 free places and 4 x 53 multipliers");
        goto done_deal;
    }
    for (Py_ssize_t i = 0; i < pool.len; i++)
        if (((const unsigned char *)pool.buf)[i] >= 53) {
            PyErr_SetString(PyExc_ValueError, "deal: a tile code is 0-52");
            goto done_deal;
        }
    for (int s = 0; s < 4; s++)
        places += fr[s];
    if (places > pool.len) {
        PyErr_SetString(PyExc_ValueError, "deal: more free places than codes");
        goto done_deal;
    }
    const double *m = mult.buf;
    for (int i = 0; i < 4 * 53; i++)
        if (!(m[i] >= 0.0)) {
            PyErr_SetString(PyExc_ValueError, "deal: a multiplier is a number >= 0");
            goto done_deal;
        }
    if (mt_load(&r, state, "deal") < 0)
        goto done_deal;
    worlds = PyList_New(n);
    if (worlds == NULL)
        goto done_deal;
    const unsigned char *src = pool.buf, *b0 = base.buf;
    Py_ssize_t np = pool.len;
    unsigned char p[256], deck[256], racks[4 * 53];
    for (Py_ssize_t w = 0; w < n; w++) {
        memcpy(p, src, (size_t)np);
        mt_shuffle(&r, p, np);
        memcpy(racks, b0, sizeof racks);
        int left[4] = {fr[0], fr[1], fr[2], fr[3]};
        Py_ssize_t room = np - places, nd = 0;
        for (Py_ssize_t i = 0; i < np; i++) {
            int c = p[i], s;
            double ws[4], tot = 0.0;
            for (s = 0; s < 4; s++) {
                ws[s] = left[s] * m[s * 53 + c];
                tot += ws[s];
            }
            double x = mt_random(&r) * (tot + (double)room);
            for (s = 0; s < 4; s++) {
                if (x < ws[s])
                    break;
                x -= ws[s];
            }
            if (s == 4 && room <= 0)
                for (s = 3; s > 0 && left[s] <= 0; s--)
                    ;
            if (s == 4) {
                room--;
                deck[nd++] = (unsigned char)c;
            } else {
                left[s]--;
                racks[s * 53 + c] += 1;
            }
        }
        mt_shuffle(&r, deck, nd);
        PyObject *pair = Py_BuildValue("(y#y#)", (const char *)racks, (Py_ssize_t)sizeof racks, (const char *)deck, nd);
        if (pair == NULL)
            goto done_deal;
        PyList_SET_ITEM(worlds, w, pair);
    }
    PyObject *st = mt_state(&r);
    if (st == NULL)
        goto done_deal;
    out = Py_BuildValue("(NO)", st, worlds);
done_deal:
    Py_XDECREF(worlds);
    PyBuffer_Release(&pool);
    PyBuffer_Release(&base);
    PyBuffer_Release(&free_);
    PyBuffer_Release(&mult);
    return out;
}

/* ---- the belief's likelihood (analysis/evaluate/belief.py log_likelihood), per world -----------

   loglik(racks, n, sigs, lg): racks is n worlds x 4 x 53 counts; sigs the other seats' signals as
   int16 values, per seat: seat, k discards and the k faces, k passed-on faces and the k faces,
   opened, turns, points needed, pairs needed, k fits and the k faces, mid_turn; lg the six
   log-ratios in belief.MODEL's order. Returns n doubles: each world's log-likelihood, added in
   the same order as the numpy reference, so the two agree to the last bit. */

static int b_completes(const uint8_t *c, int f)
{
    int col = f / 13, n = f % 13, wild = c[WILD] > 0;
    const uint8_t *row = c + col * 13;
    static const int pa[3] = {-2, -1, 1}, pb[3] = {-1, 1, 2};
    for (int i = 0; i < 3; i++) {
        int a = n + pa[i], b = n + pb[i];
        if (a < 0 || a >= 13 || b < 0 || b >= 13)
            continue;
        int ha = row[a] > 0, hb = row[b] > 0;
        if ((ha && hb) || (wild && (ha || hb)))
            return 1;
    }
    int others = 0;
    for (int k = 0; k < 4; k++)
        others += k != col && c[k * 13 + n] > 0;
    return others >= 2 || (wild && others >= 1);
}

static int b_joins(const uint8_t *c, int f)
{
    int col = f / 13, n = f % 13;
    if (c[f])
        return 1;
    for (int k = n - 2; k <= n + 2; k++)
        if (k != n && k >= 0 && k < 13 && c[col * 13 + k])
            return 1;
    for (int k = 0; k < 4; k++)
        if (k != col && c[k * 13 + n])
            return 1;
    return 0;
}

static int b_can_open(const uint8_t *c, int points_needed, int pairs_needed)
{
    int groups = 0, runs = 0, pairs = c[WILD];
    for (int n = 0; n < 13; n++) {
        int k = 0;
        for (int col = 0; col < 4; col++)
            k += c[col * 13 + n] > 0;
        if (k >= 3)
            groups += k * (n + 1);
    }
    for (int col = 0; col < 4; col++) {
        const uint8_t *row = c + col * 13;
        int n = 0;
        while (n < 13) {
            if (!row[n]) {
                n++;
                continue;
            }
            int m = n;
            while (m < 13 && row[m])
                m++;
            if (m - n >= 3)
                for (int x = n; x < m; x++)
                    runs += x + 1;
            n = m;
        }
    }
    for (int f = 0; f < 52; f++)
        pairs += c[f] / 2;
    int points = (runs > groups ? runs : groups) + 10 * c[WILD];
    return points >= points_needed || pairs >= pairs_needed;
}

static PyObject *r_loglik(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer rb, sb;
    Py_ssize_t n;
    double lg[6];
    if (!PyArg_ParseTuple(args, "y*ny*(dddddd)", &rb, &n, &sb, &lg[0], &lg[1], &lg[2], &lg[3], &lg[4], &lg[5]))
        return NULL;
    PyObject *out = NULL;
    const int16_t *sg = sb.buf;
    Py_ssize_t ns = sb.len / 2;
    if (n < 0 || rb.len != n * 4 * 53 || sb.len % 2) {
        PyErr_SetString(PyExc_ValueError, "loglik: n worlds of 4 x 53 counts and int16 signals");
        goto done;
    }
    /* check the signals' shape once */
    for (Py_ssize_t i = 0; i < ns;) {
        if (i + 2 > ns || sg[i] < 0 || sg[i] > 3)
            goto bad;
        Py_ssize_t j = i + 1;
        for (int part = 0; part < 2; part++) {
            if (j >= ns || sg[j] < 0 || j + 1 + sg[j] > ns)
                goto bad;
            for (int q = 1; q <= sg[j]; q++)
                if (sg[j + q] < 0 || sg[j + q] >= 52)
                    goto bad;
            j += 1 + sg[j];
        }
        if (j + 5 > ns || sg[j + 4] < 0 || j + 5 + sg[j + 4] + 1 > ns)
            goto bad;
        for (int q = 1; q <= sg[j + 4]; q++)
            if (sg[j + 4 + q] < 0 || sg[j + 4 + q] >= 52)
                goto bad;
        i = j + 5 + sg[j + 4] + 1;
    }
    out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(double));
    if (out == NULL)
        goto done;
    double *ll = (double *)PyBytes_AS_STRING(out);
    const uint8_t *racks = rb.buf;
    for (Py_ssize_t w = 0; w < n; w++) {
        double acc = 0.0;
        for (Py_ssize_t i = 0; i < ns;) {
            const uint8_t *c = racks + w * 4 * 53 + sg[i] * 53;
            Py_ssize_t j = i + 1;
            int nd = sg[j];
            for (int q = 1; q <= nd; q++) {
                int f = sg[j + q];
                acc += b_completes(c, f) ? lg[0] : b_joins(c, f) ? lg[1] : 0.0;
            }
            j += 1 + nd;
            int np = sg[j];
            const int16_t *pf = sg + j + 1;
            j += 1 + np;
            int opened = sg[j], turns = sg[j + 1], pts = sg[j + 2], prs = sg[j + 3], nf = sg[j + 4];
            const int16_t *fits = sg + j + 5;
            int mid = sg[j + 5 + nf];
            for (int q = 0; q < np; q++)
                acc += b_completes(c, pf[q]) ? lg[opened ? 2 : 3] : 0.0;
            if (!opened && turns > 0)
                acc += b_can_open(c, pts, prs) ? lg[4] : 0.0;
            if (opened && nf && !mid) {
                int held = 0;
                for (int q = 0; q < nf && !held; q++)
                    held = c[fits[q]] > 0;
                acc += held ? lg[5] : 0.0;
            }
            i = j + 5 + nf + 1;
        }
        ll[w] = acc;
    }
    goto done;
bad:
    PyErr_SetString(PyExc_ValueError, "loglik: malformed signals");
done:
    PyBuffer_Release(&rb);
    PyBuffer_Release(&sb);
    return out;
}

static PyMethodDef ro_methods[] = {
    {"loglik", r_loglik, METH_VARARGS, "The belief's log-likelihood of each world (see the comment above)."},
    {"draws", r_draws, METH_VARARGS, "Worlds drawn as random.shuffle draws them (see the comment above)."},
    {"deal", r_deal, METH_VARARGS, "Worlds dealt from the direct reading, as reading.deal_one deals them (see above)."},

    {"stats", r_stats, METH_NOARGS, "Counters since the last call: searches, turns, plays, memo hits, and the "
                                    "kernel searches by kind with their seconds (monotonic clock)."},
    {"play", r_play, METH_VARARGS, "Play the rest of a hand by the model (see the file's comment)."},
    {"value_parts", r_value_parts, METH_VARARGS, "One play, and a seat's value with its parts (see above)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef ro_module = {PyModuleDef_HEAD_INIT, "crollout", NULL, -1, ro_methods, NULL, NULL, NULL,
                                       NULL};

PyMODINIT_FUNC PyInit_crollout(void)
{
    kernel_init();
    return PyModule_Create(&ro_module);
}
