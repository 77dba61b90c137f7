// The WebSocket protocol's message types and their fields, both ways (docs/web.md).
// Made by `python -m unotable.web.messages --js` from src/unotable/web/messages.py:
// do not edit; a test checks it is up to date.

/** The type names of the messages the client sends. */
export const CLIENT = Object.freeze({
  "HELLO": "hello",
  "ACT": "act",
  "NEXT_HAND": "next_hand",
  "REMATCH": "rematch",
  "PENALIZE": "penalize",
  "FREE_SEAT": "free_seat",
  "SEAT_BOT": "seat_bot",
  "REACT": "react",
  "CHAT": "chat",
  "PING": "ping",
  "QR": "qr",
  "MORE_TIME": "more_time",
  "ASK_SEAT": "ask_seat",
  "ANSWER_ASK": "answer_ask"
});

/** Per type the client sends: who may send it and its fields. */
export const CLIENT_MESSAGES = freeze({
  "hello": {
    "who": "anyone",
    "fields": {
      "token": {
        "type": "string or null",
        "required": false
      },
      "changes": {
        "type": "boolean",
        "required": false
      }
    }
  },
  "act": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "action": {
        "type": "string",
        "required": true
      }
    }
  },
  "next_hand": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      }
    }
  },
  "rematch": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      }
    }
  },
  "penalize": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "player": {
        "type": "integer",
        "required": true
      }
    }
  },
  "free_seat": {
    "who": "host",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "player": {
        "type": "integer",
        "required": true
      }
    }
  },
  "seat_bot": {
    "who": "host",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "player": {
        "type": "integer",
        "required": true
      },
      "bot": {
        "type": "string",
        "required": true
      }
    }
  },
  "react": {
    "who": "watcher",
    "fields": {
      "token": {
        "type": "string or null",
        "required": false
      },
      "reaction": {
        "type": "string",
        "required": true
      }
    }
  },
  "chat": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "text": {
        "type": "string",
        "required": true
      }
    }
  },
  "ping": {
    "who": "anyone",
    "fields": {}
  },
  "qr": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      }
    }
  },
  "more_time": {
    "who": "seat",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      }
    }
  },
  "ask_seat": {
    "who": "watcher",
    "fields": {
      "token": {
        "type": "string or null",
        "required": false
      },
      "player": {
        "type": "integer",
        "required": true
      },
      "name": {
        "type": "string",
        "required": true
      }
    }
  },
  "answer_ask": {
    "who": "host",
    "fields": {
      "token": {
        "type": "string",
        "required": true
      },
      "ask": {
        "type": "integer",
        "required": true
      },
      "give": {
        "type": "boolean",
        "required": true
      }
    }
  }
});

/** The type names of the messages the server sends. */
export const SERVER = Object.freeze({
  "WELCOME": "welcome",
  "UPDATE": "update",
  "ERROR": "error",
  "PONG": "pong",
  "RETIRED": "retired",
  "CHAT": "chat",
  "REACTION": "reaction",
  "QR": "qr",
  "SEAT_ASK": "seat_ask",
  "ASK_ANSWER": "ask_answer"
});

/** Per type the server sends: who may send it and its fields. */
export const SERVER_MESSAGES = freeze({
  "welcome": {
    "who": "server",
    "fields": {
      "seq": {
        "type": "integer",
        "required": true
      },
      "you": {
        "type": "integer or null",
        "required": true
      },
      "seat": {
        "type": "integer or null",
        "required": true
      },
      "events": {
        "type": "array",
        "required": true
      },
      "view": {
        "type": "object",
        "required": true
      },
      "table": {
        "type": "object",
        "required": true
      },
      "rejoin": {
        "type": "object or null",
        "required": false
      },
      "chat": {
        "type": "array of `chat`",
        "required": false
      }
    }
  },
  "update": {
    "who": "server",
    "fields": {
      "seq": {
        "type": "integer",
        "required": true
      },
      "you": {
        "type": "integer or null",
        "required": true
      },
      "seat": {
        "type": "integer or null",
        "required": true
      },
      "events": {
        "type": "array",
        "required": true
      },
      "view": {
        "type": "object",
        "required": true
      },
      "table": {
        "type": "object or null",
        "required": false
      }
    }
  },
  "error": {
    "who": "server",
    "fields": {
      "code": {
        "type": "string",
        "required": true
      },
      "message": {
        "type": "string",
        "required": true
      }
    }
  },
  "pong": {
    "who": "server",
    "fields": {}
  },
  "retired": {
    "who": "server",
    "fields": {
      "reason": {
        "type": "string",
        "required": true
      },
      "message": {
        "type": "string",
        "required": true
      }
    }
  },
  "chat": {
    "who": "server",
    "fields": {
      "player": {
        "type": "integer",
        "required": true
      },
      "name": {
        "type": "string",
        "required": true
      },
      "text": {
        "type": "string",
        "required": true
      },
      "at": {
        "type": "string",
        "required": true
      }
    }
  },
  "reaction": {
    "who": "server",
    "fields": {
      "player": {
        "type": "integer or null",
        "required": true
      },
      "reaction": {
        "type": "string",
        "required": true
      }
    }
  },
  "qr": {
    "who": "server",
    "fields": {
      "qr_svg": {
        "type": "string",
        "required": true
      }
    }
  },
  "seat_ask": {
    "who": "server",
    "fields": {
      "ask": {
        "type": "integer",
        "required": true
      },
      "player": {
        "type": "integer",
        "required": true
      },
      "name": {
        "type": "string",
        "required": true
      }
    }
  },
  "ask_answer": {
    "who": "server",
    "fields": {
      "player": {
        "type": "integer",
        "required": true
      },
      "reason": {
        "type": "string",
        "required": true
      },
      "token": {
        "type": "string or null",
        "required": false
      }
    }
  }
});

function freeze(value) {
  for (const inner of Object.values(value)) if (typeof inner === "object") freeze(inner);
  return Object.freeze(value);
}
