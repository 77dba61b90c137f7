// Calls up the page's module graph, bound late (issue 35): a module below another in the graph
// (seats.js below render.js, header.js below main.js ...) calls the upper one's function through
// this registry instead of importing it, so that no import cycle joins the modules
// (tests/web/test_page_modules.py checks the graph). Each owner module provides its functions
// when it loads (main.js: route, rerender; render.js: render, moreTimeLeft; table.js: enterTable,
// leaveTable, drawTimer, announceDecision; lobby.js: levelWords, joinBody); they are called
// later, from events, once every module has loaded.
const provided = {};

// The owner module's functions, by name (called once, at its load).
export function provide(fns) {
  Object.assign(provided, fns);
}

function late(name) {
  return (...args) => {
    const fn = provided[name];
    if (!fn) throw new Error(`late.js: ${name} called before its module loaded`);
    return fn(...args);
  };
}

export const route = late("route");
export const rerender = late("rerender");
export const render = late("render");
export const enterTable = late("enterTable");
export const leaveTable = late("leaveTable");
export const drawTimer = late("drawTimer");
export const levelWords = late("levelWords");
export const joinBody = late("joinBody");
export const moreTimeLeft = late("moreTimeLeft");
export const announceDecision = late("announceDecision");
