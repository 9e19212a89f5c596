// The messages of the table's socket as the client reads them: JSDoc types only (nothing runs
// here), written after the TypedDicts of the server's messages module.  A field the server
// adds is added here too, so that `npx tsc -p .` checks every read of it.

/**
 * @typedef {object} LegalMove
 * @property {string} move  the token to send back in a "move" intent
 * @property {"play" | "draw" | "pass"} kind
 * @property {string | null} tile
 * @property {string | null} arm
 * @property {number} decision  moves with the same number are one decision (ends alike)
 */

/**
 * @typedef {object} Layout
 * @property {string | null} first
 * @property {number | null} first_left
 * @property {Record<string, {tile: string, inner: number, outer: number}[]>} arms
 * @property {Record<string, number>} ends
 * @property {string[]} double_ends
 * @property {number | null} spinner
 * @property {unknown[] | null} spinner_at
 * @property {"line" | "trains" | "foot"} [kind]  how the arms hang together (missing: "line")
 * @property {string | null} [hub]  trains and chicken foot: the centre double
 * @property {Record<string, number | null>} [owners]  trains: arm ("1".."8", "M") -> its seat (null: Mexican)
 * @property {string[]} [open]  trains: the arms carrying a marker (anyone may play there)
 * @property {string | null} [pending]  the arm ending in a double that must be covered first
 * @property {Record<string, [string, number]>} [parents]  chicken foot: toe -> [arm, index] of its double
 */

/**
 * @typedef {object} MoveEvent  one move of the hand, as everybody saw it
 * @property {number} seat
 * @property {string} action  "play", "draw", "pass"
 * @property {string | null} tile
 * @property {string | null} arm
 * @property {number | null} points  what a play scored at once
 */

/**
 * @typedef {object} View  a seat's view of the hand (a spectator's: no tiles, no legal moves)
 * @property {string} variant
 * @property {number} players
 * @property {number | null} seat
 * @property {number[][]} sides
 * @property {number} hand_number
 * @property {number} leader
 * @property {number | null} to_move
 * @property {LegalMove[]} legal
 * @property {string[]} hand
 * @property {number[]} tile_counts
 * @property {[number, string][][]} face_up  per seat: [row position, tile]
 * @property {string | null} turned_up
 * @property {string | null} peek
 * @property {Layout} layout
 * @property {number} boneyard  tiles left to draw
 * @property {number} boneyard_size  tiles in the boneyard, the kept-back ones too
 * @property {MoveEvent[]} history
 * @property {number[]} totals
 * @property {number[]} hand_points
 * @property {{value: number, note: string | null, note_key: string | null} | null} count
 * @property {boolean} over
 * @property {string | null} end
 * @property {string[][] | null} revealed
 * @property {boolean} blind
 * @property {number} round_bonus
 */

/**
 * @typedef {object} PadLine  one hand's result on the score pad
 * @property {number} hand
 * @property {number} leader
 * @property {string} end
 * @property {number | null} winner
 * @property {number[]} points
 * @property {number[]} totals
 * @property {number[]} pips
 * @property {Record<string, unknown>} breakdown
 * @property {string[] | null} sum
 */

/**
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {string} name
 * @property {boolean} named  false: the server's own name for it ("Seat 2")
 * @property {"human" | "bot"} kind
 * @property {string | null} level
 * @property {boolean} claimed
 * @property {boolean} connected
 * @property {boolean} bot_playing
 * @property {string | null} profile
 */

/**
 * @typedef {object} TableInfo
 * @property {string} id
 * @property {string} name
 * @property {boolean} named
 * @property {string} variant
 * @property {number} players
 * @property {Record<string, unknown>} options
 * @property {number[][]} sides
 * @property {string} scoring
 * @property {string} direction
 * @property {string} status  "waiting", "playing", "over"
 * @property {SeatInfo[]} seats
 * @property {number} timer
 * @property {boolean} private
 * @property {boolean} rated
 * @property {number} created
 * @property {number} hands
 * @property {number[]} totals
 * @property {number | null} winner
 * @property {number} watching
 * @property {string | null} rematch
 * @property {string | null} rematch_of
 * @property {DealsInfo | null} deals  null: a table made before deals were sealed
 * @property {string} [tournament] a tournament's table: the tournament's id
 */

/**
 * @typedef {object} DealsInfo  the table's sealed deals (RECORD.md, "Extensions")
 * @property {string} scheme  "sha256-v1"
 * @property {string} commitment  the SHA-256 published before the first hand
 * @property {string | null} seed  decimal; null until the game is over
 * @property {string | null} salt  null until the game is over
 */

/**
 * @typedef {object} DealFinding  a tile the record holds where the seed deals another
 * @property {number} hand
 * @property {number} number
 * @property {number | null} seat  null: the boneyard
 * @property {number | null} position
 * @property {string | null} recorded
 * @property {string | null} dealt
 * @property {string} message
 */

/**
 * @typedef {object} DealsCheck  GET /api/tables/<id>/verify
 * @property {"verified" | "mismatch" | "sealed" | "none"} status
 * @property {string | null} commitment
 * @property {string | null} seed
 * @property {string | null} salt
 * @property {boolean | null} commitment_ok
 * @property {number} hands
 * @property {number} hands_ok
 * @property {DealFinding[]} findings
 */

/**
 * @typedef {object} RematchOffer
 * @property {"asking" | "declined" | "expired" | "started"} status
 * @property {number} by
 * @property {number[]} accepted
 * @property {number[]} waiting
 * @property {number[]} away
 * @property {number | null} declined
 * @property {number | null} deadline  seconds left to answer
 * @property {string | null} table
 */

/**
 * @typedef {object} StateMessage
 * @property {"state"} type
 * @property {number} seq
 * @property {number | string | null} ack  the id of the intent this state answers
 * @property {TableInfo} table
 * @property {number | null} you  null: a spectator
 * @property {string} phase  "waiting", "play", "leader", "hand_over", "over"
 * @property {boolean} forced
 * @property {{kind: "leader", seats: number[], hand?: string[]} | null} pending
 * @property {number | null} deadline  seconds left to the person to move
 * @property {View | null} view
 * @property {PadLine[]} pad
 * @property {number[]} ready
 * @property {RematchOffer | null} rematch
 */

/**
 * @typedef {object} HintMove
 * @property {string} move
 * @property {number} points
 * @property {number | null} win
 * @property {number | null} game
 * @property {{code: string, pips?: number, points?: number, seat?: number}[]} reasons
 */

/** @typedef {{type: "error", message: string, code?: string, params?: Record<string, unknown>, id?: number | string | null}} ErrorMessage */
/** @typedef {{seat: number | null, tiles: {tile: string, p: number}[]}} HintBelief  the tiles a seat (null: the stock) likely holds */
/** @typedef {{type: "hint", id: number | string | null, figure: "points" | "win", moves: HintMove[], beliefs: HintBelief[]}} HintMessage */
/** @typedef {{seat: number, name: string, text: string, at: number}} ChatLine */
/** @typedef {{type: "chat", lines: ChatLine[], full: boolean, muted: number[], hidden: number}} ChatMessage */
/** @typedef {{type: "rematch", table: string, seat: number, token: string}} RematchSeat */

/**
 * @typedef {object} OptionInfo  a rule option of a game, as the lobby offers it
 * @property {string} name
 * @property {string} label
 * @property {string} label_key
 * @property {string} help
 * @property {string} help_key
 * @property {any} default
 * @property {any[] | null} values  null: a whole number
 * @property {string[] | null} labels
 * @property {(string | null)[] | null} value_keys
 * @property {number | null} minimum
 */

/**
 * @typedef {object} VariantInfo  a game of the catalogue
 * @property {string} name
 * @property {string} label
 * @property {string} label_key
 * @property {string} description
 * @property {string} description_key
 * @property {Record<string, string>} [description_keys]  per player count, where the game reads differently
 * @property {number[]} players
 * @property {number} default_players
 * @property {string} scoring
 * @property {string} direction
 * @property {{players: number, options: Record<string, unknown>, sides: number[][]}[]} partnerships
 * @property {OptionInfo[]} options
 */

/**
 * @typedef {object} Catalogue  GET /api/variants
 * @property {VariantInfo[]} variants
 * @property {string[]} bot_levels
 * @property {string[]} [bot_labels]
 * @property {string} [default_bot_level]
 * @property {string[]} [bot_keys]
 */

/**
 * @typedef {object} ReplayHand
 * @property {number} hand
 * @property {number} leader
 * @property {string[][]} deal
 * @property {number} positions  its frames: the deal and one after each move
 * @property {{move: string | null, seat: number | null, view: View & {hands?: string[][]}}[]} [frames]  only in the hand's own answer (GET /api/tables/<id>/replay/<n>), not in the index
 * @property {boolean} finished
 * @property {PadLine} result
 */

/**
 * @typedef {object} Replay  GET /api/tables/<id>/replay, or a record file read by the server: the index (no hand's frames)
 * @property {string} variant
 * @property {number} players
 * @property {number[][]} sides
 * @property {string} scoring
 * @property {string[]} names
 * @property {ReplayHand[]} hands
 * @property {number[]} totals
 * @property {number | null} winner
 * @property {boolean} finished
 */

export {};
