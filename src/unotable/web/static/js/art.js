// The card art and sounds the page uses (cards.js and sound.js), and the sounds asked for.
import { Cards } from "./cards.js";
import { Sound } from "./sound.js";

export const Art = {
  cards: () => Cards,
  sound: () => Sound,
  played: [],
  asked: [],
  // A sound of the table, remembered (the last 50) so the tests can see which were asked for:
  // `played` the names, `asked` each with the event's kind and card that asked for it.
  play(name, event) {
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    this.asked.push({ sound: name, kind: event ? event.kind : null, card: event && event.cards ? event.cards[0] || null : null });
    if (this.asked.length > 50) this.asked.shift();
    this.sound().play(name);
  },
};
