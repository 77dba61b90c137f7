/* unotable.native._core: the rules of a hand (docs/rules.md §1-9) in C, for the batched loops.
 *
 * One translation unit: rules.h (the engine), policies.h (the policies played inside), this file
 * (the Python types Tables and State, and the module), loops.h (play_hands), envloop.h
 * (EnvBatch: the research env's tables, issue 15), search.h (the search bot's decision).
 *
 * The Python engine (src/unotable/engine.py) is the specification; rules.h follows it function
 * by function (the names in comments are the Python ones), and the differential tests
 * (tests/test_native.py) play both side by side. What this core does not know (house rules,
 * lenient plays) the Python glue refuses before a table is built (an allow-list of options,
 * unotable.native.core.unsupported); the constants below are exported (CONSTANTS) so that a test
 * compares them with the Python tables.
 *
 * A state keeps every card of the deck in one array, in segments: the draw pile (bottom first,
 * top last), the hand of each seat in order, the discard pile (top first); a card moves between
 * segments with one memmove of the hands between (never of a pile). Beside each card in a hand, a mask of the seats that
 * know it (Python's ``known``). Randomness is the Python engine's: a SplitMix64 state whose
 * numbers seed SHAKE-128, whose output are the sort keys of a shuffle (engine._shuffle).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "rules.h"
#include "policies.h"

/* ------------------------------------------------------------------------------------------ */
/* Python objects: Tables, State, and the batched functions. */

typedef struct {
    PyObject_HEAD Tables tb;
} TablesObject;

typedef struct {
    PyObject_HEAD TablesObject *tables;
    UState st;
} StateObject;

static PyTypeObject TablesType;
static PyTypeObject StateType;

static int read_bytes(PyObject *obj, Py_ssize_t need, const char *what, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len != need) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes, not %zd", what, need, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Tables(n, draw_amount, rw, sugg, must_play_drawn, target, mode, scoring, teams, deck,
 *        effect, wild, color, points, playable, blanks, actions) */
static int Tables_init(TablesObject *self, PyObject *args, PyObject *kw) {
    Tables *tb = &self->tb;
    PyObject *deck, *effect, *wild, *color, *points, *playable, *blanks, *actions;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiOOOOOOOO", &tb->n, &tb->draw_amount, &tb->rw, &tb->sugg,
                          &tb->must_play_drawn, &tb->target, &tb->mode, &tb->scoring, &tb->teams, &deck,
                          &effect, &wild, &color, &points, &playable, &blanks, &actions))
        return -1;
    if (tb->n < 2 || tb->n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players must be from 2 to 10");
        return -1;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(deck, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len < 7 * tb->n + 1 || v.len > MAXC) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "bad deck");
        return -1;
    }
    tb->ndeck = (int)v.len;
    memcpy(tb->deck, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    if (read_bytes(effect, NT, "effect", &v) < 0) return -1;
    memcpy(tb->effect, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(wild, NT, "wild", &v) < 0) return -1;
    memcpy(tb->wild, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(color, NT, "color", &v) < 0) return -1;
    memcpy(tb->color, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(points, NT, "points", &v) < 0) return -1;
    memcpy(tb->points, v.buf, NT);
    PyBuffer_Release(&v);
    if (read_bytes(playable, 5 * NT * NT, "playable", &v) < 0) return -1;
    memcpy(tb->playable, v.buf, 5 * NT * NT);
    PyBuffer_Release(&v);
    if (read_bytes(blanks, 20, "blanks", &v) < 0) return -1;
    {
        const uint8_t *b = v.buf;
        for (int c = 0; c < 4; c++) {
            tb->blank_draw[c] = b[c * 5];
            tb->blank_skip[c] = b[c * 5 + 1];
            tb->blank_rev[c] = b[c * 5 + 2];
            tb->blank_wild[c] = b[c * 5 + 3];
            tb->blank_reveal[c] = b[c * 5 + 4];
        }
    }
    PyBuffer_Release(&v);
    if (PyObject_GetBuffer(actions, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len % 4 || v.len / 4 > NAMAX) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "bad action table");
        return -1;
    }
    tb->na = (int)(v.len / 4);
    memset(tb->play_id, 0xFF, sizeof tb->play_id);
    {
        const int8_t *a = v.buf;
        for (int i = 0; i < tb->na; i++) {
            int kind = a[4 * i], card = a[4 * i + 1], arg = a[4 * i + 2], uno = a[4 * i + 3];
            tb->a_kind[i] = (int8_t)kind;
            tb->a_card[i] = (int8_t)card;
            tb->a_arg[i] = (int8_t)arg;
            tb->a_uno[i] = (int8_t)uno;
            switch (kind) {
            case K_PLAY:
                tb->play_id[card][uno][arg + 1] = (int16_t)i;
                break;
            case K_DRAW: tb->draw_id = (int16_t)i; break;
            case K_PASS: tb->pass_id = (int16_t)i; break;
            case K_COLOR: tb->color_id[arg] = (int16_t)i; break;
            case K_UNO: tb->uno_id = (int16_t)i; break;
            case K_CATCH: tb->catch_id[arg] = (int16_t)i; break;
            case K_CHALLENGE: tb->challenge_id = (int16_t)i; break;
            case K_ACCEPT: tb->accept_id = (int16_t)i; break;
            case K_INVIS: tb->invis_id[uno][arg] = (int16_t)i; break;
            case K_PENALIZE: tb->penalize_id[arg] = (int16_t)i; break;
            default: break;
            }
        }
    }
    PyBuffer_Release(&v);
    tables_derive(tb);
    return 0;
}

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tables_init,
    .tp_doc = "The lookup tables of one Rules (built by unotable.native.core).",
};

static StateObject *new_state_object(TablesObject *tables) {
    StateObject *obj = PyObject_New(StateObject, &StateType);
    if (!obj) return NULL;
    Py_INCREF(tables);
    obj->tables = tables;
    return obj;
}

static void State_dealloc(StateObject *self) {
    Py_XDECREF(self->tables);
    PyObject_Free(self);
}

static PyObject *list_of(const uint8_t *cards, int len) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(cards[i]));
    return out;
}

static PyObject *State_legal_ids(StateObject *self, PyObject *arg) {
    int seat = (int)PyLong_AsLong(arg), ids[MAXIDS];
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (!(seat == TABLE_SEAT || (seat >= 0 && seat < self->st.n))) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(&self->tables->tb, &self->st, seat, ids);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(ids[i]));
    return out;
}

/* step(seat, aid): checked; a ValueError changes nothing. */
static PyObject *State_step(StateObject *self, PyObject *args) {
    int seat, aid, ids[MAXIDS];
    if (!PyArg_ParseTuple(args, "ii", &seat, &aid)) return NULL;
    if (!(seat == TABLE_SEAT || (seat >= 0 && seat < self->st.n))) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(&self->tables->tb, &self->st, seat, ids), ok = 0;
    for (int i = 0; i < k; i++)
        if (ids[i] == aid) ok = 1;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal for seat %d now", aid, seat);
        return NULL;
    }
    step(&self->tables->tb, &self->st, seat, aid);
    Py_RETURN_NONE;
}

/* playout(seat, aid, horizon) -> (phase, current, winner, hand_points, sizes, points): on a copy
 * (this state is not changed), ``seat`` takes ``aid``, then every seat plays rollout_action
 * (bots/rollout.py) until the hand ends or ``horizon`` actions more; what the search bot's reward
 * reads of the end: the phase, the seat to play, the winner, the hand's points, each hand's size
 * and points. */
static PyObject *State_playout(StateObject *self, PyObject *args) {
    int seat, aid, horizon, ids[MAXIDS];
    if (!PyArg_ParseTuple(args, "iii", &seat, &aid, &horizon)) return NULL;
    const Tables *tb = &self->tables->tb;
    if (seat < 0 || seat >= self->st.n) {
        PyErr_Format(PyExc_ValueError, "no seat %d at this table of %d", seat, self->st.n);
        return NULL;
    }
    int k = legal_ids(tb, &self->st, seat, ids), ok = 0;
    for (int i = 0; i < k; i++)
        if (ids[i] == aid) ok = 1;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal for seat %d now", aid, seat);
        return NULL;
    }
    UState st = self->st;
    step(tb, &st, seat, aid);
    for (int i = 0; i < horizon && st.phase < P_HAND_OVER; i++) step(tb, &st, st.current, rollout_action(tb, &st));
    int n = st.n, points[MAXP];
    hand_points_of(tb, &st, points);
    PyObject *sizes = PyList_New(n), *pts = PyList_New(n);
    if (!sizes || !pts) {
        Py_XDECREF(sizes);
        Py_XDECREF(pts);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyList_SET_ITEM(sizes, s, PyLong_FromLong(HAND_LEN(&st, s)));
        PyList_SET_ITEM(pts, s, PyLong_FromLong(points[s]));
    }
    return Py_BuildValue("(iiiiNN)", st.phase, st.current, st.winner, st.hand_points, sizes, pts);
}

/* rollout_action() -> the playout policy's action for the seat the phase waits for (tests). */
static PyObject *State_rollout_action(StateObject *self, PyObject *unused) {
    if (self->st.current < 0) {
        PyErr_SetString(PyExc_ValueError, "the hand is over");
        return NULL;
    }
    return PyLong_FromLong(rollout_action(&self->tables->tb, &self->st));
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    StateObject *obj = new_state_object(self->tables);
    if (!obj) return NULL;
    obj->st = self->st;
    return (PyObject *)obj;
}

/* dump(): every field, as unotable.native.core reads it back into a Python State. */
static PyObject *State_dump(StateObject *self, PyObject *unused) {
    const UState *st = &self->st;
    int n = st->n;
    PyObject *hands = PyList_New(n), *masks = PyList_New(n), *facing = PyList_New(n), *scores;
    if (!hands || !masks || !facing) goto fail;
    for (int s = 0; s < n; s++) {
        int b = HAND_BEGIN(st, s), len = HAND_LEN(st, s);
        PyObject *h = list_of(st->cards + b, len), *m = PyList_New(len);
        if (!h || !m) {
            Py_XDECREF(h);
            Py_XDECREF(m);
            goto fail;
        }
        for (int i = 0; i < len; i++) PyList_SET_ITEM(m, i, PyLong_FromLong(st->known[b + i]));
        PyList_SET_ITEM(hands, s, h);
        PyList_SET_ITEM(masks, s, m);
        PyList_SET_ITEM(facing, s, PyLong_FromLong(st->drew_facing[s]));
    }
    scores = PyList_New(0);
    if (!scores) goto fail;
    int dlen = DISCARD_LEN(st), ds = st->start[SEG_DISCARD(st)];
    uint8_t bottom_first[MAXC];
    for (int i = 0; i < dlen; i++) bottom_first[i] = st->cards[st->ncards - 1 - i];
    PyObject *discard = list_of(bottom_first, dlen);
    (void)ds;
    for (int s = 0; s < MAXP; s++) {
        PyObject *x = PyLong_FromLong(st->scores[s]);
        if (!x || PyList_Append(scores, x) < 0) {
            Py_XDECREF(x);
            Py_DECREF(scores);
            goto fail;
        }
        Py_DECREF(x);
    }
    return Py_BuildValue("{sNsNsNsNsNsisisisisisisisisisisisisisNsisisisK}", "hands", hands, "known", masks,
                         "draw", list_of(st->cards, DRAW_LEN(st)), "discard",
                         discard, "drew_facing",
                         facing, "color", st->color, "current", st->current, "direction", st->direction,
                         "dealer", st->dealer, "phase", st->phase, "drawn", st->drawn, "after_color",
                         st->after_color, "pend_card", st->pend_card, "pend_from", st->pend_from,
                         "pend_color", st->pend_color, "pend_guilty", st->pend_guilty, "exposed",
                         (int)st->exposed, "winner", st->winner, "scores", scores, "hand_points",
                         st->hand_points, "game_winners", (int)st->game_winners, "n", n, "rng",
                         (unsigned long long)st->rng);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(masks);
    Py_XDECREF(facing);
    return NULL;
}

static PyObject *State_current(StateObject *self, void *unused) { return PyLong_FromLong(self->st.current); }
static PyObject *State_phase(StateObject *self, void *unused) { return PyLong_FromLong(self->st.phase); }
static PyObject *State_winner(StateObject *self, void *unused) { return PyLong_FromLong(self->st.winner); }
static PyObject *State_sizeof(StateObject *self, PyObject *unused) { return PyLong_FromSize_t(sizeof(StateObject)); }

static PyMethodDef State_methods[] = {
    {"legal_ids", (PyCFunction)State_legal_ids, METH_O, "Ids of the legal actions of a seat (-2: the table)."},
    {"step", (PyCFunction)State_step, METH_VARARGS, "Apply a legal action (ValueError if it is not legal)."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "An independent copy."},
    {"playout", (PyCFunction)State_playout, METH_VARARGS,
     "playout(seat, aid, horizon) -> (phase, current, winner, hand_points, sizes, points), on a copy."},
    {"rollout_action", (PyCFunction)State_rollout_action, METH_NOARGS, "The playout policy's action now."},
    {"dump", (PyCFunction)State_dump, METH_NOARGS, "Every field, as a dict."},
    {"__sizeof__", (PyCFunction)State_sizeof, METH_NOARGS, "Bytes of the object."},
    {NULL}};

static PyGetSetDef State_getset[] = {
    {"current", (getter)State_current, NULL, "The seat the phase waits for; -1 once over.", NULL},
    {"phase", (getter)State_phase, NULL, "The phase (state.Phase).", NULL},
    {"winner", (getter)State_winner, NULL, "The seat that went out, or -1.", NULL},
    {NULL}};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "unotable.native._core.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)State_dealloc,
    .tp_methods = State_methods,
    .tp_getset = State_getset,
    .tp_doc = "A hand's state in the native core (made by new_hand or load).",
};

static int parse_candidates(PyObject *obj, int n, int *cand, int *ncand) {
    Py_buffer v;
    if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) < 0) return -1;
    if (v.len < 1 || v.len > n) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "candidates must name 1 to n seats");
        return -1;
    }
    *ncand = (int)v.len;
    for (int i = 0; i < v.len; i++) {
        cand[i] = ((uint8_t *)v.buf)[i];
        if (cand[i] >= n) {
            PyBuffer_Release(&v);
            PyErr_SetString(PyExc_ValueError, "bad candidate seat");
            return -1;
        }
    }
    PyBuffer_Release(&v);
    return 0;
}

static int first_card_error(int rc) {
    if (rc == -1)
        PyErr_SetString(PyExc_ValueError, "the draw pile ran out while turning the first card");
    else
        PyErr_SetString(PyExc_ValueError, "no card of the draw pile can start the discard pile");
    return -1;
}

/* new_hand(tables, seed, dealer, candidates): dealer < 0 draws among candidates (bytes). */
static PyObject *py_new_hand(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    unsigned long long seed;
    int dealer, cand[MAXP], ncand = 0;
    PyObject *candidates;
    if (!PyArg_ParseTuple(args, "O!KiO", &TablesType, &tables, &seed, &dealer, &candidates)) return NULL;
    if (dealer < 0 && parse_candidates(candidates, tables->tb.n, cand, &ncand) < 0) return NULL;
    if (dealer >= tables->tb.n) {
        PyErr_SetString(PyExc_ValueError, "bad dealer");
        return NULL;
    }
    StateObject *obj = new_state_object(tables);
    if (!obj) return NULL;
    int rc = new_hand(&tables->tb, &obj->st, seed, dealer, cand, ncand, 0);
    if (rc < 0) {
        Py_DECREF(obj);
        first_card_error(rc);
        return NULL;
    }
    return (PyObject *)obj;
}

static int fill_list(PyObject *list, uint8_t *cards, int *pos, int limit) {
    Py_ssize_t len = PyList_Size(list);
    if (len < 0) return -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c >= NT || *pos >= limit) {
            PyErr_SetString(PyExc_ValueError, "bad card or too many cards");
            return -1;
        }
        cards[(*pos)++] = (uint8_t)c;
    }
    return 0;
}

/* load(tables, fields): a state from the dict ``dump`` writes (the glue checks it first). */
static PyObject *py_load(PyObject *mod, PyObject *args) {
    TablesObject *tables;
    PyObject *d;
    if (!PyArg_ParseTuple(args, "O!O!", &TablesType, &tables, &PyDict_Type, &d)) return NULL;
    StateObject *obj = new_state_object(tables);
    if (!obj) return NULL;
    UState *st = &obj->st;
    const Tables *tb = &tables->tb;
    empty_state(tb, st, 1);
    int n = tb->n, pos = 0;
#define GETITEM(name) PyDict_GetItemString(d, name)
    PyObject *draw = GETITEM("draw"), *hands = GETITEM("hands"), *known = GETITEM("known"),
             *discard = GETITEM("discard"), *facing = GETITEM("drew_facing"), *scores = GETITEM("scores");
    if (!draw || !hands || !known || !discard || !facing || !scores || !PyList_Check(draw) ||
        !PyList_Check(hands) || !PyList_Check(known) || !PyList_Check(discard) || !PyList_Check(facing) ||
        !PyList_Check(scores) || PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(known) != n ||
        PyList_GET_SIZE(facing) != n || PyList_GET_SIZE(scores) > MAXP) {
        PyErr_SetString(PyExc_ValueError, "load: bad fields");
        goto fail;
    }
    st->start[0] = 0;
    if (fill_list(draw, st->cards, &pos, MAXC) < 0) goto fail;
    st->start[1] = (uint8_t)pos;
    for (int s = 0; s < n; s++) {
        PyObject *h = PyList_GET_ITEM(hands, s), *m = PyList_GET_ITEM(known, s);
        int b = pos;
        if (!PyList_Check(h) || !PyList_Check(m) || PyList_GET_SIZE(h) != PyList_GET_SIZE(m)) {
            PyErr_SetString(PyExc_ValueError, "load: bad hand");
            goto fail;
        }
        if (fill_list(h, st->cards, &pos, MAXC) < 0) goto fail;
        for (int i = 0; i < pos - b; i++) {
            long mask = PyLong_AsLong(PyList_GET_ITEM(m, i));
            if (mask == -1 && PyErr_Occurred()) goto fail;
            st->known[b + i] = (uint16_t)mask;
            if (mask) st->any_known = 1;
        }
        st->start[s + 2] = (uint8_t)pos;
    }
    {
        int d0 = pos;
        if (fill_list(discard, st->cards, &pos, MAXC) < 0) goto fail;
        for (int i = d0, j = pos - 1; i < j; i++, j--) { /* kept top first */
            uint8_t c = st->cards[i];
            st->cards[i] = st->cards[j];
            st->cards[j] = c;
        }
    }
    if (PyList_GET_SIZE(discard) < 1) {
        PyErr_SetString(PyExc_ValueError, "load: the discard pile is empty");
        goto fail;
    }
    st->ncards = (uint8_t)pos; /* a position may leave cards out (scenario files) */
    st->start[n + 2] = (uint8_t)pos;
    for (int s = 0; s < n; s++) {
        long f = PyLong_AsLong(PyList_GET_ITEM(facing, s));
        if (f == -1 && PyErr_Occurred()) goto fail;
        st->drew_facing[s] = (int16_t)(f < -1 || f >= 5 * NT ? -2 : f); /* -2: refused below */
    }
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(scores); s++)
        st->scores[s] = (int32_t)PyLong_AsLong(PyList_GET_ITEM(scores, s));
#define GETINT(name, field, lo, hi)                                              \
    do {                                                                         \
        PyObject *x = GETITEM(name);                                             \
        if (!x) {                                                                \
            PyErr_SetString(PyExc_ValueError, "load: missing " name);            \
            goto fail;                                                           \
        }                                                                        \
        long v = PyLong_AsLong(x);                                               \
        if (v == -1 && PyErr_Occurred()) goto fail;                              \
        if (v < (lo) || v > (hi)) {                                              \
            PyErr_Format(PyExc_ValueError, "load: %s out of range: %ld", name, v); \
            goto fail;                                                           \
        }                                                                        \
        field = v;                                                               \
    } while (0)
    GETINT("color", st->color, -1, 3);
    GETINT("current", st->current, -1, n - 1);
    GETINT("direction", st->direction, -1, 1);
    GETINT("dealer", st->dealer, 0, n - 1);
    GETINT("phase", st->phase, P_TURN, P_GAME_OVER);
    GETINT("drawn", st->drawn, -1, NT - 1);
    GETINT("after_color", st->after_color, -1, n - 1);
    GETINT("pend_card", st->pend_card, -1, NT - 1);
    GETINT("pend_from", st->pend_from, -1, n - 1);
    GETINT("pend_color", st->pend_color, -1, 3);
    GETINT("pend_guilty", st->pend_guilty, 0, 1);
    GETINT("exposed", st->exposed, 0, (1L << n) - 1);
    GETINT("winner", st->winner, -1, n - 1);
    GETINT("hand_points", st->hand_points, -1, 1L << 30);
    GETINT("game_winners", st->game_winners, 0, (1L << n) - 1);
    /* what the rules read without checking must make sense (a bad position fails here, never
     * in the rules) */
    if (st->direction == 0 || (st->phase < P_HAND_OVER && st->current < 0) ||
        (st->phase == P_AFTER_DRAW && st->drawn < 0) || (st->phase == P_CHOOSE_COLOR && st->after_color < 0) ||
        (st->phase == P_RESPOND && (st->pend_card < 0 || st->pend_from < 0)) ||
        (st->phase == P_TURN && st->color < 0)) {
        PyErr_SetString(PyExc_ValueError, "load: the fields do not make a position of this phase");
        goto fail;
    }
    for (int k = 0; k < n; k++) {
        if (st->drew_facing[k] < -1) {
            PyErr_SetString(PyExc_ValueError, "load: drew_facing out of range");
            goto fail;
        }
        for (int p = HAND_BEGIN(st, k); p < HAND_END(st, k); p++)
            if (st->known[p] >> n) {
                PyErr_SetString(PyExc_ValueError, "load: a known-card mask names no seat");
                goto fail;
            }
    }
    {
        PyObject *x = GETITEM("rng");
        if (!x) goto fail;
        st->rng = PyLong_AsUnsignedLongLong(x);
        if (PyErr_Occurred()) goto fail;
    }
    if (PyErr_Occurred()) goto fail;
    return (PyObject *)obj;
fail:
    Py_DECREF(obj);
    return NULL;
}

#include "loops.h"
#include "envloop.h"
#include "search.h"

/* shuffle(rng, cards[, fast]) -> (cards, rng): one shuffle from generator state rng (tests). */
static PyObject *py_shuffle(PyObject *mod, PyObject *args) {
    unsigned long long rng;
    Py_buffer v;
    int fast = 0;
    if (!PyArg_ParseTuple(args, "Ky*|p", &rng, &v, &fast)) return NULL;
    if (v.len > MAXC) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "at most 112 cards");
        return NULL;
    }
    uint8_t cards[MAXC];
    memcpy(cards, v.buf, (size_t)v.len);
    uint64_t r = rng;
    if (fast)
        shuffle_fast(&r, cards, (int)v.len);
    else
        shuffle_cards(&r, cards, (int)v.len);
    PyObject *out = Py_BuildValue("(y#K)", cards, v.len, (unsigned long long)r);
    PyBuffer_Release(&v);
    return out;
}

static PyObject *py_state_size(PyObject *mod, PyObject *unused) { return PyLong_FromSize_t(sizeof(UState)); }

static PyObject *py_simd_level(PyObject *mod, PyObject *unused) { return PyLong_FromLong(simd_level()); }

/* shake_x8(numbers, count, level) -> bytes: SHAKE-128 of each of eight 64-bit numbers (bytes,
 * little-endian), ``count`` words each, one stream after the other, made as the batched loop
 * makes them with the vector units of ``level`` (0 none, 1 AVX2, 2 AVX-512; at most
 * simd_level(), else ValueError): for the tests, which compare them with hashlib's. */
static PyObject *py_shake_x8(PyObject *mod, PyObject *args) {
    Py_buffer v;
    int count, level;
    if (!PyArg_ParseTuple(args, "y*ii", &v, &count, &level)) return NULL;
    uint64_t x[8];
    int ok = v.len == (Py_ssize_t)sizeof x && count >= 1 && count <= MAXC && level >= 0;
    if (ok) memcpy(x, v.buf, sizeof x);
    PyBuffer_Release(&v);
    if (!ok || level > simd_level()) {
        PyErr_SetString(PyExc_ValueError, "eight numbers, 1 to 112 words, a level this processor has");
        return NULL;
    }
    uint64_t out[8 * MAXC], words[8 * MAXC];
    shake128_words_x8_at(level, x, out, count);
    for (int j = 0; j < 8; j++) memcpy(words + j * count, out + j * MAXC, (size_t)count * 8);
    return PyBytes_FromStringAndSize((const char *)words, (Py_ssize_t)count * 64);
}

/* The enums and constants of rules.h and policies.h by name, as the module's CONSTANTS dict: a
 * test compares them with the Python tables they copy (notation.Kind, engine.E_*, state.Phase,
 * rules.MODES, cards.WILD_DRAW_FOUR ..., native.core.POLICIES), so that neither side changes
 * alone; and the lengths of the two layouts the glue packs (envloop.h's offsets, L_COUNT: the
 * size and one per envbackend.SEGMENTS; search.h's view header, V_HEADER: search.pack_view's). */
#define CONSTANT(name) {#name, name}
static const struct {
    const char *name;
    long value;
} CORE_CONSTANTS[] = {
    CONSTANT(K_PLAY), CONSTANT(K_DRAW), CONSTANT(K_PASS), CONSTANT(K_COLOR), CONSTANT(K_UNO),
    CONSTANT(K_CATCH), CONSTANT(K_CHALLENGE), CONSTANT(K_ACCEPT), CONSTANT(K_INVIS), CONSTANT(K_WRONG),
    CONSTANT(K_PENALIZE),
    CONSTANT(E_NUMBER), CONSTANT(E_SKIP), CONSTANT(E_REVERSE), CONSTANT(E_DRAW), CONSTANT(E_WILD),
    CONSTANT(E_WD4), CONSTANT(E_HOWLER), CONSTANT(E_INVIS), CONSTANT(E_MATER), CONSTANT(E_BLANK),
    CONSTANT(P_TURN), CONSTANT(P_AFTER_DRAW), CONSTANT(P_CHOOSE_COLOR), CONSTANT(P_RESPOND),
    CONSTANT(P_HAND_OVER), CONSTANT(P_GAME_OVER),
    CONSTANT(M_SOLO), CONSTANT(M_PARTNERS), CONSTANT(M_TEAMS), CONSTANT(M_ROTATING), CONSTANT(M_TWO_TABLES),
    CONSTANT(M_CHALLENGE),
    CONSTANT(C_WD4), CONSTANT(C_HOWLER), CONSTANT(C_INVIS), CONSTANT(C_MATER), CONSTANT(TABLE_SEAT),
    CONSTANT(MAXP), CONSTANT(MAXC), CONSTANT(NT), CONSTANT(NAMAX), CONSTANT(MAXIDS),
    CONSTANT(POL_RANDOM), CONSTANT(POL_PLAYS_FIRST), CONSTANT(POL_GREEDY),
    CONSTANT(L_COUNT), CONSTANT(V_HEADER),
};
#undef CONSTANT

static PyObject *core_constants(void) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (size_t i = 0; i < sizeof CORE_CONSTANTS / sizeof CORE_CONSTANTS[0]; i++) {
        PyObject *v = PyLong_FromLong(CORE_CONSTANTS[i].value);
        if (!v || PyDict_SetItemString(d, CORE_CONSTANTS[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

static PyMethodDef module_methods[] = {
    {"new_hand", py_new_hand, METH_VARARGS, "new_hand(tables, seed, dealer, candidates) -> State"},
    {"load", py_load, METH_VARARGS, "load(tables, fields) -> State"},
    {"play_hands", py_play_hands, METH_VARARGS,
     "play_hands(tables, seeds, dealer, candidates, dealers, policies, pick_seed, max_actions) -> bytes tuple"},
    {"shuffle", py_shuffle, METH_VARARGS, "shuffle(rng, cards, fast=False) -> (cards, rng): engine._shuffle, or the fast one"},
    {"determinize", py_determinize, METH_VARARGS, "determinize(tables, view_ints, view_cards, trust, rng) -> (State, rng)"},
    {"search", py_search, METH_VARARGS, "search(tables, view_ints, view_cards, moves, rng, ...) -> (rewards, rng, worlds)"},
    {"state_size", py_state_size, METH_NOARGS, "Bytes of one state in the batched loops."},
    {"shake_x8", py_shake_x8, METH_VARARGS, "shake_x8(numbers, count, level) -> bytes (tests)"},
    {"simd_level", (PyCFunction)py_simd_level, METH_NOARGS, "2 AVX-512, 1 AVX2, 0 neither"},
    {NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "unotable.native._core",
                                    "The native core of unotable (see the C source).", -1, module_methods};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&StateType) < 0 || PyType_Ready(&EnvType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TablesType);
    PyModule_AddObject(m, "Tables", (PyObject *)&TablesType);
    Py_INCREF(&StateType);
    PyModule_AddObject(m, "State", (PyObject *)&StateType);
    Py_INCREF(&EnvType);
    PyModule_AddObject(m, "EnvBatch", (PyObject *)&EnvType);
    PyObject *constants = core_constants();
    if (!constants || PyModule_AddObject(m, "CONSTANTS", constants) < 0) {
        Py_XDECREF(constants);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
