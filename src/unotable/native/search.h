/* The search bot's whole decision in the core (bots/search.py, determinize.py): worlds sampled
 * from a seat's VIEW, each candidate played in them and then played out by the rollout policy,
 * UCB1 sharing the playouts among the candidates. Included by _core.c only, after the Tables and
 * State objects.
 *
 * Hidden information: nothing here sees a real state. The caller passes what the view holds
 * (its hand, the discard pile, the cards it knows in other hands, hand sizes, the draw pile's
 * size, what each seat faced when it chose to draw, the public fields) and the unseen cards
 * (the deck less all those); the worlds are dealt from these alone, as determinize.py deals them.
 *
 * Randomness: the search's generator is the bot's ``random.Random``, a Mersenne Twister; its
 * state comes in (``getstate``) and goes back out, and every draw here is the one Python's
 * ``shuffle``, ``choice``, ``random`` and ``getrandbits(64)`` would make, in the same order. So
 * the native decision samples the very worlds of the Python one, plays the same playouts and
 * returns the same rewards, bit for bit (tests/test_native_search.py). */
#ifndef UNOTABLE_SEARCH_H
#define UNOTABLE_SEARCH_H

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "pyrandom.h"

/* ------------------------------------------------------------------------------------------ */
/* A seat's view, as the glue (unotable.native.search) packs it. */

enum {
    V_SEAT, V_CURRENT, V_DIRECTION, V_DEALER, V_PHASE, V_DRAWN, V_COLOR, V_AFTER_COLOR, V_PEND_CARD,
    V_PEND_FROM, V_PEND_COLOR, V_EXPOSED, V_WINNER, V_HAND_POINTS, V_GAME_WINNERS, V_DRAW_SIZE,
    V_NSCORES, V_NDISCARD, V_NUNSEEN, V_HEADER
};

typedef struct {
    int f[V_HEADER];
    int sizes[MAXP], facing[MAXP], nknown[MAXP];
    int32_t scores[MAXP];
    uint8_t hand[MAXC], discard[MAXC], unseen[MAXC];
    uint8_t known[MAXP][MAXC];
} SView;

/* Reads the packed view: int32 ``ints`` (the header, then per seat its hand size, its
 * drew_facing code or -1 and how many of its cards the seat knows, then the scores) and the
 * cards (the hand, the discard pile bottom first, the known cards seat by seat, the unseen
 * cards). Checks every number a world or the rules would index with; NULL or an error. */
static const char *read_view(const Tables *tb, const int32_t *ints, Py_ssize_t nints, const uint8_t *cards,
                             Py_ssize_t ncards, SView *v) {
    int n = tb->n;
    if (nints < V_HEADER + 3 * n) return "the view's numbers are too few";
    for (int i = 0; i < V_HEADER; i++) v->f[i] = ints[i];
    const int32_t *per = ints + V_HEADER;
    int total = 0, seat = v->f[V_SEAT];
    if (seat < 0 || seat >= n) return "the view's seat is no seat of the table";
    for (int s = 0; s < n; s++) {
        v->sizes[s] = per[3 * s];
        v->facing[s] = per[3 * s + 1];
        v->nknown[s] = per[3 * s + 2];
        if (v->sizes[s] < 0 || v->sizes[s] > MAXC || v->nknown[s] < 0 || v->nknown[s] > v->sizes[s])
            return "a hand size or a count of known cards is out of range";
        if (v->facing[s] < -1 || v->facing[s] >= 5 * NT) return "a drew_facing code is out of range";
        if (s == seat && v->nknown[s]) return "a seat knows no cards of its own hand as others'";
        total += s == seat ? v->sizes[s] : v->nknown[s];
    }
    int nscores = v->f[V_NSCORES], ndiscard = v->f[V_NDISCARD], nunseen = v->f[V_NUNSEEN];
    if (nscores < 0 || nscores > MAXP || nints != V_HEADER + 3 * n + nscores) return "the view's numbers do not add up";
    for (int s = 0; s < nscores; s++) v->scores[s] = per[3 * n + s];
    if (ndiscard < 1 || nunseen < 0 || v->f[V_DRAW_SIZE] < 0) return "the discard pile is empty or a count is negative";
    total += ndiscard + nunseen;
    if (total != ncards || total > MAXC) return "the view's cards do not add up";
    for (Py_ssize_t i = 0; i < ncards; i++)
        if (cards[i] >= NT) return "a card of the view is no card";
    const uint8_t *c = cards;
    memcpy(v->hand, c, (size_t)v->sizes[seat]);
    c += v->sizes[seat];
    memcpy(v->discard, c, (size_t)ndiscard);
    c += ndiscard;
    for (int s = 0; s < n; s++) {
        if (s == seat) continue;
        memcpy(v->known[s], c, (size_t)v->nknown[s]);
        c += v->nknown[s];
    }
    memcpy(v->unseen, c, (size_t)nunseen);
    const int *f = v->f;
    if (f[V_CURRENT] < -1 || f[V_CURRENT] >= n || (f[V_DIRECTION] != 1 && f[V_DIRECTION] != -1) ||
        f[V_DEALER] < 0 || f[V_DEALER] >= n || f[V_PHASE] < P_TURN || f[V_PHASE] > P_GAME_OVER ||
        f[V_DRAWN] < -1 || f[V_DRAWN] >= NT || f[V_COLOR] < -1 || f[V_COLOR] > 3 || f[V_AFTER_COLOR] < -1 ||
        f[V_AFTER_COLOR] >= n || f[V_PEND_CARD] < -1 || f[V_PEND_CARD] >= NT || f[V_PEND_FROM] < -1 ||
        f[V_PEND_FROM] >= n || f[V_PEND_COLOR] < -1 || f[V_PEND_COLOR] > 3 || f[V_EXPOSED] < 0 ||
        f[V_EXPOSED] >= 1 << n || f[V_WINNER] < -1 || f[V_WINNER] >= n || f[V_HAND_POINTS] < -1 ||
        f[V_GAME_WINNERS] < 0 || f[V_GAME_WINNERS] >= 1 << n)
        return "a field of the view is out of range";
    int phase = f[V_PHASE];
    if (phase >= P_HAND_OVER) return "the hand is over: nothing to search";
    if (f[V_CURRENT] < 0 || (phase == P_CHOOSE_COLOR && f[V_AFTER_COLOR] < 0) ||
        (phase == P_RESPOND && (f[V_PEND_CARD] < 0 || f[V_PEND_FROM] < 0)) || (phase == P_TURN && f[V_COLOR] < 0) ||
        (phase == P_AFTER_DRAW && f[V_CURRENT] == seat && f[V_DRAWN] < 0))
        return "the view's fields do not make a position of its phase";
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* determinize.determinize, into a native state. */

/* A world of ``v``; NULL or why the view does not add up (``r`` has moved on either way). */
static const char *sample_world(const Tables *tb, const SView *v, PyRandom *r, double trust, UState *st) {
    const int *f = v->f;
    int n = tb->n, seat = f[V_SEAT], current = f[V_CURRENT], m = f[V_NUNSEEN];
    uint8_t un[MAXC], rest[MAXC];
    if (m < 0 || m > MAXC) return "too many unseen cards"; /* read_view checked it: for the compiler */
    memcpy(un, v->unseen, (size_t)m);
    for (int i = m - 1; i > 0; i--) { /* rng.shuffle(unseen) */
        int j = mt_below(r, i + 1);
        uint8_t c = un[i];
        un[i] = un[j];
        un[j] = c;
    }
    int drawn = f[V_DRAWN], reserved = -1;
    if (f[V_PHASE] == P_AFTER_DRAW && drawn < 0) {
        /* Another seat drew a playable card: one of the unseen cards that match. */
        const uint8_t *ok = tb->playable[(f[V_COLOR] + 1) * NT + v->discard[f[V_NDISCARD] - 1]];
        int match[MAXC], nm = 0;
        for (int i = 0; i < m; i++)
            if (ok[un[i]]) match[nm++] = i;
        if (!nm) return "no unseen card could be the playable card just drawn";
        int at = match[mt_below(r, nm)];
        drawn = reserved = un[at];
        memmove(un + at, un + at + 1, (size_t)(m - at - 1));
        m--;
    }
    int takes[MAXP], ndealt[MAXP];
    uint8_t dealt[MAXP][MAXC];
    for (int s = 0; s < n; s++) {
        ndealt[s] = 0;
        takes[s] = s == seat ? 0 : v->sizes[s] - v->nknown[s] - (reserved >= 0 && s == current);
    }
    if (trust > 0.0) {
        for (int s = 0; s < n; s++) {
            if (v->facing[s] < 0 || s == seat || takes[s] <= 0) continue;
            const uint8_t *ok = tb->playable[v->facing[s]];
            int held = 0;
            for (int i = 0; i < v->nknown[s]; i++) held |= ok[v->known[s][i]];
            if (held) continue; /* it did hold a card it could play: a draw by choice */
            if (trust < 1.0 && mt_random(r) >= trust) continue;
            /* the first non-matching cards of the shuffled unseen ones: a uniform choice */
            int need = takes[s], k = 0, nr = 0;
            for (int i = 0; i < m && nr < MAXC; i++) {
                if (k < need && !ok[un[i]])
                    dealt[s][k++] = un[i];
                else
                    rest[nr++] = un[i];
            }
            int short_by = need - k, from = 0;
            if (short_by > 0) { /* too few cards could fail to match: the rest matched after all */
                if (short_by > nr) short_by = nr;
                memcpy(dealt[s] + k, rest, (size_t)short_by);
                k += short_by;
                from = short_by;
            }
            ndealt[s] = k;
            takes[s] = 0;
            m = nr - from;
            memcpy(un, rest + from, (size_t)m);
        }
    }
    int at = 0, bad = 0;
    for (int s = 0; s < n; s++) {
        if (takes[s] < 0) bad = 1;
        if (takes[s] <= 0) continue;
        if (at + takes[s] > m) return "the view does not add up: too few unseen cards for the hidden places";
        memcpy(dealt[s], un + at, (size_t)takes[s]);
        ndealt[s] = takes[s];
        at += takes[s];
    }
    if (m - at != f[V_DRAW_SIZE] || bad)
        return "the view does not add up: the unseen cards left do not make the draw pile";
    /* the state: draw pile (bottom first), the hands, the discard pile (top first) */
    empty_state(tb, st, 1);
    int pos = 0;
    memcpy(st->cards, un + at, (size_t)(m - at));
    pos = m - at;
    st->start[0] = 0;
    st->start[1] = (uint8_t)pos;
    for (int s = 0; s < n; s++) {
        if (s == seat) {
            memcpy(st->cards + pos, v->hand, (size_t)v->sizes[s]);
            pos += v->sizes[s];
        } else {
            for (int i = 0; i < v->nknown[s]; i++) {
                st->known[pos] = (uint16_t)(1u << seat);
                st->cards[pos++] = v->known[s][i];
                st->any_known = 1;
            }
            memcpy(st->cards + pos, dealt[s], (size_t)ndealt[s]);
            pos += ndealt[s];
            if (reserved >= 0 && s == current) st->cards[pos++] = (uint8_t)reserved;
        }
        st->start[s + 2] = (uint8_t)pos;
    }
    for (int i = f[V_NDISCARD] - 1; i >= 0; i--) st->cards[pos++] = v->discard[i];
    st->ncards = (uint8_t)pos;
    st->start[n + 2] = (uint8_t)pos;
    st->color = (int8_t)f[V_COLOR];
    st->current = (int8_t)current;
    st->direction = (int8_t)f[V_DIRECTION];
    st->dealer = (int8_t)f[V_DEALER];
    st->phase = (int8_t)f[V_PHASE];
    st->drawn = (int8_t)drawn;
    for (int s = 0; s < n; s++) st->drew_facing[s] = (int16_t)v->facing[s];
    st->after_color = (int8_t)f[V_AFTER_COLOR];
    st->pend_card = (int8_t)f[V_PEND_CARD];
    st->pend_from = (int8_t)f[V_PEND_FROM];
    st->pend_color = (int8_t)f[V_PEND_COLOR];
    st->pend_guilty = (int8_t)(f[V_PEND_CARD] == C_WD4 && f[V_PEND_COLOR] >= 0 &&
                               holds_color(tb, st, f[V_PEND_FROM], f[V_PEND_COLOR]));
    st->exposed = (uint16_t)f[V_EXPOSED];
    for (int s = 0; s < f[V_NSCORES]; s++) st->scores[s] = v->scores[s];
    st->winner = (int8_t)f[V_WINNER];
    st->hand_points = f[V_HAND_POINTS];
    st->game_winners = (uint16_t)f[V_GAME_WINNERS];
    st->rng = seed_to_rng(mt_bits64(r));
    return NULL;
}

/* SearchBot.sample: a world; facing a Wild Draw Four, one where its player bluffed is kept with
 * probability ``bluff_prior`` only (else sampled again, 8 times at most). */
static const char *sample_search_world(const Tables *tb, const SView *v, PyRandom *r, double trust,
                                       double bluff_prior, UState *st) {
    const char *err = sample_world(tb, v, r, trust, st);
    if (err || !(v->f[V_PEND_CARD] == C_WD4 && v->f[V_CURRENT] == v->f[V_SEAT])) return err;
    for (int i = 0; i < 8; i++) {
        if (!st->pend_guilty || mt_random(r) < bluff_prior) break;
        if ((err = sample_world(tb, v, r, trust, st))) return err;
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* The rewards (SearchBot._reward) and the loop (SearchBot.search). */

/* sum() of floats as the running Python does it: left to right before 3.12, with Neumaier's
 * compensation from 3.12 on. */
static double py_sum(const double *x, int m, int neumaier) {
    double s = 0.0, c = 0.0;
    for (int i = 0; i < m; i++) {
        if (!neumaier) {
            s += x[i];
            continue;
        }
        double t = s + x[i];
        if (fabs(s) >= fabs(x[i]))
            c += (s - t) + x[i];
        else
            c += (x[i] - t) + s;
        s = t;
    }
    if (neumaier && c != 0.0 && isfinite(c)) s += c;
    return s;
}

#define CUT_SLOPE 0.3
#define CUT_BONUS 0.2

static double search_reward(const Tables *tb, const UState *st, int seat, int points_reward, int neumaier) {
    int n = st->n;
    if (st->phase < P_HAND_OVER) {
        /* a playout cut at the horizon: each seat's chance exp(-0.3 * its cards), the seat to
         * play weighed up by exp(0.2) */
        double w[MAXP], ours[MAXP];
        int k = 0;
        for (int s = 0; s < n; s++) {
            w[s] = exp(CUT_BONUS * (double)(s == st->current) - CUT_SLOPE * (double)HAND_LEN(st, s));
            if (partners(tb, seat, s)) ours[k++] = w[s];
        }
        return py_sum(ours, k, neumaier) / py_sum(w, n, neumaier);
    }
    int won = partners(tb, seat, st->winner);
    if (!points_reward) return won ? 1.0 : 0.0;
    if (won) {
        double x = (st->hand_points > 0 ? st->hand_points : 0) / 250.0;
        return 0.6 + 0.4 * (x < 1.0 ? x : 1.0);
    }
    int points[MAXP];
    hand_points_of(tb, st, points);
    double y = points[seat] / 100.0;
    return 0.4 * (1.0 - (y < 1.0 ? y : 1.0));
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
    long budget;
    double time_budget; /* < 0: none */
    double exploration, trust, bluff_prior;
    int uniform, horizon, points_reward, neumaier;
} SearchParams;

/* The search of one decision: ``nmoves`` candidate actions of the view's seat; each playout's
 * candidate into ``which`` and reward into ``reward`` (both ``cap`` long, grown as needed);
 * returns the playouts done (-1: out of memory; -2: ``*err`` says what is wrong). */
static long run_search(const Tables *tb, const SView *v, const int *moves, int nmoves, const SearchParams *p,
                       PyRandom *r, int16_t **which, double **reward, long *cap, long *nworlds, const char **err) {
    int seat = v->f[V_SEAT], k = nmoves;
    long done = 0, nw = 0, wcap = 16;
    UState *worlds = malloc((size_t)wcap * sizeof(UState));
    long *count = calloc((size_t)k, sizeof(long));
    double *totals = calloc((size_t)k, sizeof(double));
    double deadline = p->time_budget < 0 ? 0.0 : now_seconds() + p->time_budget;
    if (!worlds || !count || !totals) {
        done = -1;
        goto out;
    }
    for (;;) {
        if (p->time_budget < 0) {
            if (done >= p->budget) break;
        } else if (done >= k && now_seconds() >= deadline) {
            break;
        }
        int i = 0;
        if (done < k || p->uniform) {
            i = (int)(done % k);
        } else {
            double log_n = log((double)done), best = 0.0;
            for (int j = 0; j < k; j++) {
                double value = totals[j] / (double)count[j] + p->exploration * sqrt(log_n / (double)count[j]);
                if (j == 0 || value > best) {
                    best = value;
                    i = j;
                }
            }
        }
        long w = count[i];
        if (w == nw) {
            if (nw == wcap) {
                UState *more = realloc(worlds, (size_t)(wcap * 2) * sizeof(UState));
                if (!more) {
                    done = -1;
                    goto out;
                }
                worlds = more;
                wcap *= 2;
            }
            if ((*err = sample_search_world(tb, v, r, p->trust, p->bluff_prior, &worlds[nw]))) {
                done = -2;
                goto out;
            }
            if (nw == 0) { /* the candidates are the seat's legal actions (the same in every world) */
                int ids[MAXIDS], nids = legal_ids(tb, &worlds[0], seat, ids);
                for (int c = 0; c < k; c++) {
                    int ok = 0;
                    for (int q = 0; q < nids; q++) ok |= ids[q] == moves[c];
                    if (!ok) {
                        *err = "a candidate action is not legal for the view's seat";
                        done = -2;
                        goto out;
                    }
                }
            }
            nw++;
        }
        UState st = worlds[w];
        step(tb, &st, seat, moves[i]);
        for (int a = 0; a < p->horizon && st.phase < P_HAND_OVER; a++) step(tb, &st, st.current, rollout_action(tb, &st));
        double rw = search_reward(tb, &st, seat, p->points_reward, p->neumaier);
        if (done == *cap) {
            int16_t *w2 = realloc(*which, (size_t)(*cap * 2) * sizeof(int16_t));
            if (w2) *which = w2;
            double *r2 = realloc(*reward, (size_t)(*cap * 2) * sizeof(double));
            if (r2) *reward = r2;
            if (!w2 || !r2) {
                done = -1;
                goto out;
            }
            *cap *= 2;
        }
        (*which)[done] = (int16_t)i;
        (*reward)[done] = rw;
        count[i]++;
        totals[i] += rw;
        done++;
    }
out:
    *nworlds = nw;
    free(worlds);
    free(count);
    free(totals);
    return done;
}

static int read_mt(PyObject *obj, PyRandom *r) {
    Py_buffer b;
    if (read_bytes(obj, (MT_N + 1) * 4, "the generator state (625 32-bit words)", &b) < 0) return -1;
    int ok = mt_position_ok(b.buf);
    if (ok) mt_load(r, b.buf);
    PyBuffer_Release(&b);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "the generator state's position is out of range");
        return -1;
    }
    return 0;
}

static PyObject *mt_bytes(const PyRandom *r) {
    uint32_t w[MT_N + 1];
    memcpy(w, r->mt, MT_N * 4);
    w[MT_N] = (uint32_t)r->index;
    return PyBytes_FromStringAndSize((const char *)w, sizeof w);
}

static int read_search_view(TablesObject *tables, PyObject *ints_obj, PyObject *cards_obj, SView *v) {
    Py_buffer iv, cv;
    if (PyObject_GetBuffer(ints_obj, &iv, PyBUF_SIMPLE) < 0) return -1;
    if (PyObject_GetBuffer(cards_obj, &cv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&iv);
        return -1;
    }
    const char *err = iv.len % 4 ? "the view's numbers must be int32"
                                 : read_view(&tables->tb, iv.buf, iv.len / 4, cv.buf, cv.len, v);
    PyBuffer_Release(&iv);
    PyBuffer_Release(&cv);
    if (err) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    return 0;
}

/* determinize(tables, view_ints, view_cards, trust, rng) -> (State, rng): one world of the view
 * (determinize.determinize's), and the generator's state after it. */
static PyObject *py_determinize(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *ints, *cards, *rng;
    double trust;
    SView v;
    PyRandom r;
    if (!PyArg_ParseTuple(args, "O!OOdO", &TablesType, &tables, &ints, &cards, &trust, &rng)) return NULL;
    if (read_search_view(tables, ints, cards, &v) < 0 || read_mt(rng, &r) < 0) return NULL;
    StateObject *obj = new_state_object(tables);
    if (!obj) return NULL;
    const char *err = sample_world(&tables->tb, &v, &r, trust, &obj->st);
    if (err) {
        Py_DECREF(obj);
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    return Py_BuildValue("(NN)", obj, mt_bytes(&r));
}

/* search(tables, view_ints, view_cards, moves, rng, budget, time_budget, exploration, trust,
 *        bluff_prior, uniform, horizon, points_reward, neumaier)
 * -> (rewards, rng, worlds): SearchBot.search for the candidates ``moves`` (int32 action ids,
 * the anchor first): each candidate's rewards in the order played, the generator's state after
 * (unchanged on an error), and the worlds sampled. */
static PyObject *py_search(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *ints, *cards, *moves_obj, *rng;
    SearchParams p;
    SView v;
    PyRandom r;
    if (!PyArg_ParseTuple(args, "O!OOOOlddddiiii", &TablesType, &tables, &ints, &cards, &moves_obj, &rng, &p.budget,
                          &p.time_budget, &p.exploration, &p.trust, &p.bluff_prior, &p.uniform, &p.horizon,
                          &p.points_reward, &p.neumaier))
        return NULL;
    if (p.budget < 1 || p.horizon < 0 || !(p.trust >= 0.0 && p.trust <= 1.0) || !(p.exploration >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "the search's budget, horizon, trust or exploration is out of range");
        return NULL;
    }
    if (read_search_view(tables, ints, cards, &v) < 0 || read_mt(rng, &r) < 0) return NULL;
    Py_buffer mv;
    if (PyObject_GetBuffer(moves_obj, &mv, PyBUF_SIMPLE) < 0) return NULL;
    int moves[MAXIDS], k = (int)(mv.len / 4);
    if (mv.len % 4 || k < 1 || k > MAXIDS) {
        PyBuffer_Release(&mv);
        PyErr_SetString(PyExc_ValueError, "give 1 to 512 candidate actions as int32");
        return NULL;
    }
    for (int i = 0; i < k; i++) moves[i] = ((const int32_t *)mv.buf)[i];
    PyBuffer_Release(&mv);
    for (int i = 0; i < k; i++)
        if (moves[i] < 0 || moves[i] >= tables->tb.na) {
            PyErr_SetString(PyExc_ValueError, "a candidate is no action id");
            return NULL;
        }
    long cap = p.time_budget < 0 ? p.budget : 1024, nworlds = 0;
    int16_t *which = malloc((size_t)cap * sizeof(int16_t));
    double *reward = malloc((size_t)cap * sizeof(double));
    const char *err = NULL;
    long done = -1;
    if (which && reward) {
        Py_BEGIN_ALLOW_THREADS done = run_search(&tables->tb, &v, moves, k, &p, &r, &which, &reward, &cap, &nworlds, &err);
        Py_END_ALLOW_THREADS
    }
    PyObject *out = NULL, *lists = NULL;
    if (done == -1) {
        PyErr_NoMemory();
        goto fail;
    }
    if (done == -2) {
        PyErr_SetString(PyExc_ValueError, err);
        goto fail;
    }
    lists = PyList_New(k);
    if (!lists) goto fail;
    for (int i = 0; i < k; i++) {
        PyObject *l = PyList_New(0);
        if (!l) goto fail;
        PyList_SET_ITEM(lists, i, l);
    }
    for (long t = 0; t < done; t++) {
        PyObject *x = PyFloat_FromDouble(reward[t]);
        if (!x || PyList_Append(PyList_GET_ITEM(lists, which[t]), x) < 0) {
            Py_XDECREF(x);
            goto fail;
        }
        Py_DECREF(x);
    }
    out = Py_BuildValue("(NNl)", lists, mt_bytes(&r), nworlds);
    lists = NULL;
fail:
    Py_XDECREF(lists);
    free(which);
    free(reward);
    return out;
}

#endif /* UNOTABLE_SEARCH_H */
