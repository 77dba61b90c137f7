// The card art and sounds the page uses (cards.js and sound.js), and the sounds asked for.
import { Cards } from "./cards.js";
import { Sound } from "./sound.js";

export const Art = {
  cards: () => Cards,
  sound: () => Sound,
  played: [],
  // A sound of the table, remembered (the last 50) so the tests can see which were asked for.
  play(name) {
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    this.sound().play(name);
  },
};
