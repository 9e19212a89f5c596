"""The messages of the web protocol as types: every client -> server and server -> client
message of the table socket, and the JSON the HTTP API answers with.  docs/PROTOCOL.md
mirrors these definitions field by field (tests/test_web_protocol_doc.py checks it)."""

from typing import Any, Literal, NotRequired, TypedDict

from ..engine.vocab import Action, Direction

MessageId = int | str
Phase = Literal["waiting", "play", "hand_over", "leader", "over"]
Status = Literal["waiting", "playing", "over"]
SeatKind = Literal["human", "bot"]
#: an arm: a line's L R U D, or a train ("1".."8", "M")
Arm = Literal["L", "R", "U", "D", "1", "2", "3", "4", "5", "6", "7", "8", "M"]
#: what a game counts: "points" sides score towards a target; "hands" are won, not scored
ScoreKind = Literal["points", "hands"]


# ------------------------------------------------------------------------ client -> server
class MoveIntent(TypedDict):
    type: Literal["move"]
    move: str  # a token from view.legal[].move
    id: NotRequired[MessageId]


class LeaderIntent(TypedDict):
    type: Literal["leader"]
    seat: int
    id: NotRequired[MessageId]


class NextIntent(TypedDict):
    type: Literal["next"]
    id: NotRequired[MessageId]


class HintIntent(TypedDict):
    type: Literal["hint"]
    id: NotRequired[MessageId]


class ChatIntent(TypedDict):
    type: Literal["chat"]
    text: str
    id: NotRequired[MessageId]


class MuteIntent(TypedDict):
    type: Literal["mute"]
    seat: int  # another person's seat: you are no longer shown its chat
    id: NotRequired[MessageId]


class UnmuteIntent(TypedDict):
    type: Literal["unmute"]
    seat: int
    id: NotRequired[MessageId]


class TakeoverIntent(TypedDict):
    type: Literal["takeover"]
    id: NotRequired[MessageId]


class RematchIntent(TypedDict):
    """At game over: ``accept`` true asks for a rematch (or, when one is asked for, accepts
    it); false declines it (the asker: withdraws it).  Only seated people may send it."""

    type: Literal["rematch"]
    accept: NotRequired[bool]  # true by default
    id: NotRequired[MessageId]


class PingIntent(TypedDict):
    type: Literal["ping"]
    id: NotRequired[MessageId]


ClientMessage = (
    MoveIntent
    | LeaderIntent
    | NextIntent
    | HintIntent
    | ChatIntent
    | MuteIntent
    | UnmuteIntent
    | TakeoverIntent
    | RematchIntent
    | PingIntent
)


# ------------------------------------------------------------------------ a seat's view
class LegalMove(TypedDict):
    move: str
    kind: Action
    tile: str | None
    arm: Arm | None
    decision: int  # moves with the same number are one decision (a tile whose ends are alike)


class PlacedTile(TypedDict):
    tile: str
    inner: int
    outer: int


class LayoutJSON(TypedDict):
    first: str | None
    first_left: int | None
    arms: dict[str, list[PlacedTile]]
    ends: dict[str, int]
    double_ends: list[str]
    spinner: int | None
    spinner_at: list[Any] | None  # ["C", 0] or [arm, index]
    # the train layout only (``engine/view_types.Layout``): absent from a line's layout
    kind: NotRequired[str]  # "trains"
    hub: NotRequired[str | None]  # the centre double
    owners: NotRequired[dict[str, int | None]]  # train -> its seat (None: the Mexican train)
    open: NotRequired[list[str]]  # trains with a marker
    pending: NotRequired[str | None]  # the train whose double must be covered first
    parents: NotRequired[dict[str, list[Any]]]  # chicken foot: arm -> [arm, index]


class EventJSON(TypedDict):
    seat: int
    action: Action
    tile: str | None
    arm: Arm | None
    points: int | None  # what the play scored at once (in-play points); None: not a play


class CountJSON(TypedDict):
    value: int  # the count of the open ends
    note: str | None  # words on it when it scores, e.g. "a multiple of five"
    note_key: str | None  # the catalogue's key for note (the client shows it in its language)


class ViewJSON(TypedDict):
    variant: str
    players: int
    seat: int | None  # None: a spectator's view (no seat: no tiles, no legal moves)
    sides: list[list[int]]
    hand_number: int
    leader: int
    to_move: int | None
    legal: list[LegalMove]
    hand: list[str]
    tile_counts: list[int]
    face_up: list[list[list[Any]]]  # per seat: [row position, tile]
    turned_up: str | None
    peek: str | None
    layout: LayoutJSON
    boneyard: int
    boneyard_size: int
    history: list[EventJSON]
    totals: list[int]
    hand_points: list[int]
    count: CountJSON | None  # None where the variant scores no count of the ends
    over: bool
    end: str | None
    revealed: list[list[str]] | None
    blind: bool
    round_bonus: int


class PadLine(TypedDict):
    hand: int
    leader: int
    end: str
    winner: int | None
    points: list[int]
    totals: list[int]
    pips: list[int]
    breakdown: dict[str, Any]
    sum: list[str] | None  # the breakdown's parts that add up to the winner's points


# ------------------------------------------------------------------------ table info
class SeatInfo(TypedDict):
    seat: int
    name: str
    named: bool  # False: the server's own name for it ("Seat 2"): words it by number and level
    kind: SeatKind
    level: str | None
    claimed: bool
    connected: bool
    bot_playing: bool
    profile: str | None  # the id of the profile the seat is tied to (never its key)


class DealsInfo(TypedDict):
    """A table's sealed deals (RECORD.md, "Extensions"): the commitment from the start, the
    seed (in decimal, a string: it may exceed 2**53) and the salt only once the game is over."""

    scheme: str  # "sha256-v1"
    commitment: str  # 64 lowercase hex digits
    seed: str | None
    salt: str | None


class TableInfo(TypedDict):
    id: str
    name: str
    named: bool  # False: the server's own name for it ("draw table")
    variant: str
    players: int
    options: dict[str, Any]
    sides: list[list[int]]
    scoring: ScoreKind
    direction: Direction
    status: Status
    seats: list[SeatInfo]
    timer: float
    private: bool
    rated: bool  # a rated table (else casual)
    created: float
    hands: int
    totals: list[int]
    winner: int | None
    watching: int  # spectator sockets open on the table
    rematch: str | None  # the id of this table's rematch, once it is being played
    rematch_of: str | None  # the id of the table this one is the rematch of
    deals: DealsInfo | None  # None: a table made before deals were sealed
    tournament: NotRequired[str]  # a tournament's table: the tournament's id (its page: /tournaments/<id>)


class SeatRating(TypedDict):
    rating: int  # the rating shown (arena.skill.shown: 1500 at the start, never negative)
    games: int  # rated games played at that game
    provisional: bool


class ListedTable(TableInfo):
    """A table of the lobby's list (``GET /api/tables``)."""

    ratings: list[SeatRating | None]  # per seat: its profile's rating at this game, if any


# ------------------------------------------------------------------------ server -> client
class Pending(TypedDict):
    kind: Literal["leader"]
    seats: list[int]
    hand: NotRequired[list[str]]  # the chooser's next tiles


#: "asking": people are being asked; "declined": one said no; "expired": not everybody
#: answered in time; "started": everybody said yes and the rematch is being played
RematchStatus = Literal["asking", "declined", "expired", "started"]


class RematchOffer(TypedDict):
    status: RematchStatus
    by: int  # the seat that asked
    accepted: list[int]  # the seats that said yes (bots at once; the asker)
    waiting: list[int]  # people asked who have not answered (expired: who did not)
    away: list[int]  # people's seats whose person is not here: a bot plays them in the rematch
    declined: int | None  # the seat that said no
    deadline: float | None  # seconds left to answer (while asking)
    table: str | None  # the rematch's table id (started)


class StateMessage(TypedDict):
    type: Literal["state"]
    seq: int
    ack: MessageId | None
    table: TableInfo
    you: int | None  # None: a spectator
    phase: Phase
    forced: bool
    pending: Pending | None
    deadline: float | None
    view: ViewJSON | None
    pad: list[PadLine]
    ready: list[int]
    rematch: RematchOffer | None  # the rematch asked for at this finished table, if any


class ErrorMessage(TypedDict):
    """A refusal: ``message`` in English; ``code`` (with its numbers in ``params``) names it for
    a client that words it in its reader's language (``error.<code>`` in the catalogue)."""

    type: Literal["error"]
    message: str
    code: NotRequired[str]
    params: NotRequired[dict[str, Any]]
    id: NotRequired[MessageId | None]


class HintReason(TypedDict):
    """One reason for a hinted move, a fact of the position (``bonepile.bots.reasons``): the
    client puts it into words with ``t("hint.<code>", params)``."""

    code: str
    pips: NotRequired[int]  # a number on the tiles (0 to 6)
    points: NotRequired[int]
    seat: NotRequired[int]  # the seat the reason is about (the next player)


class HintMove(TypedDict):
    move: str
    points: float  # expected net points of the hand for the seat's side
    win: float | None  # the chance to win the hand
    game: float | None  # the chance to win the game in this hand (None: it cannot end now)
    reasons: list[HintReason]


class HintTile(TypedDict):
    tile: str  # "6-4"
    p: float  # the probability that the holder has it (0.4 to 1)


class HintBelief(TypedDict):
    """The unseen tiles another seat (or the stock, seat None) likely holds, from the hinted
    seat's view only (``bots.hint.likely_tiles``)."""

    seat: int | None
    tiles: list[HintTile]  # up to 3, likeliest first


class HintMessage(TypedDict):
    type: Literal["hint"]
    id: MessageId | None
    figure: Literal["points", "win"]  # the one figure shown, which ranks the moves
    moves: list[HintMove]
    beliefs: list[HintBelief]  # per holder with a likely tile: other seats in turn order, the stock


class ChatLine(TypedDict):
    seat: int
    name: str
    text: str
    at: float


class ChatMessage(TypedDict):
    type: Literal["chat"]
    lines: list[ChatLine]  # the lines you are shown (never those of the seats you muted)
    full: bool  # true: lines are all the table's recent chat you see (replace what is shown)
    muted: list[int]  # the seats you muted (none for a spectator)
    hidden: int  # the table's recent lines you are not shown (those of the seats you muted)


class RematchSeat(TypedDict):
    """Sent only to the sockets of a seat that accepted a rematch: its seat at the new table."""

    type: Literal["rematch"]
    table: str
    seat: int
    token: str  # the new seat's token (as a join's): it acts only at the new table


class PongMessage(TypedDict):
    type: Literal["pong"]
    id: MessageId | None


ServerMessage = StateMessage | ErrorMessage | HintMessage | ChatMessage | RematchSeat | PongMessage


# ------------------------------------------------------------------------ HTTP answers
class OptionInfo(TypedDict):
    name: str
    label: str
    label_key: str  # the catalogue's key for label (and the same for every *_key below)
    help: str  # one line on what the option changes
    help_key: str
    default: Any
    values: list[Any] | None  # None: an integer
    labels: list[str] | None  # words for each of values
    value_keys: list[str | None] | None  # a key for each of values (None: show the number)
    minimum: int | None


class Partnership(TypedDict):
    players: int
    options: dict[str, Any]  # the option values it needs (besides the defaults)
    sides: list[list[int]]


class VariantInfo(TypedDict):
    name: str
    label: str
    label_key: str
    description: str  # one line on the game
    description_key: str
    # per player count ("2": ...), where the game reads differently (2-player Block draws)
    description_keys: dict[str, str]
    players: list[int]
    default_players: int
    scoring: ScoreKind
    direction: Direction
    partnerships: list[Partnership]
    options: list[OptionInfo]


class Catalogue(TypedDict):
    variants: list[VariantInfo]
    bot_levels: list[str]  # the bot levels people choose from, weakest first
    bot_labels: list[str]  # words for each of bot_levels
    default_bot_level: str  # the level offered first (a fair game for a casual player)
    bot_keys: list[str]  # the catalogue's key for each of bot_labels


class CreatedTable(TypedDict):
    id: str
    seat: int | None
    token: str | None
    invite: str
    private: bool


class JoinedSeat(TypedDict):
    seat: int
    token: str


# ------------------------------------------------------------------------ profiles
class ProfileInfo(TypedDict):
    id: str
    name: str


class ProfileKey(TypedDict):
    id: str
    name: str
    key: str  # the secret, shown once: the server keeps only its hash


class MuteList(TypedDict):
    muted: list[ProfileInfo]  # the profiles whose chat you are not shown, the first muted first


class ProfileDevice(TypedDict):
    id: str  # names the device's key without telling anything of it
    created: float  # when the device got its key (seconds since 1970)
    this: bool  # the device asking
    removable: bool  # the device asking may sign it out (itself, or a device added after it)


class ProfileDevices(TypedDict):
    devices: list[ProfileDevice]  # oldest first


class ProfileLink(TypedDict):
    code: str  # traded once for a key on another device (POST /api/profiles/claim)
    expires_in: int  # seconds


class ReplayFrame(TypedDict):
    move: str | None
    seat: int | None
    view: dict[str, Any]  # a ViewJSON with "hands": every seat's tiles


class ReplayHand(TypedDict):
    hand: int
    leader: int
    deal: list[list[str]]
    positions: int  # its frames: the deal and one after each move
    frames: NotRequired[list[ReplayFrame]]  # only in a hand's own answer, not in the index
    finished: bool
    result: PadLine


class Replay(TypedDict):
    variant: str
    players: int
    sides: list[list[int]]
    scoring: ScoreKind
    names: list[str]
    hands: list[ReplayHand]
    totals: list[int]
    winner: int | None
    finished: bool


class DealFinding(TypedDict):
    """A hand dealt otherwise than its seed deals it (``engine/verify.py``'s ``Finding``)."""

    hand: int  # 1-based, in the record
    number: int  # the game's hand number
    seat: int | None  # None: the boneyard
    position: int | None  # 1-based place in a row or the boneyard, where order matters
    recorded: str | None  # the tile the record has there
    dealt: str | None  # the tile the seed deals there
    message: str  # in English


#: "verified": the commitment and every hand match; "mismatch": something differs; "sealed":
#: the game is not over, the seed is secret; "none": a table made before deals were sealed
DealsStatus = Literal["verified", "mismatch", "sealed", "none"]


class DealsCheck(TypedDict):
    """``GET /api/tables/{id}/verify``: the server's check of a table's deals."""

    status: DealsStatus
    commitment: str | None
    seed: str | None  # decimal, a string (beyond 2**53); None until the game is over
    salt: str | None
    commitment_ok: bool | None  # None: not checked (sealed or none)
    hands: int
    hands_ok: int
    findings: list[DealFinding]


# ---------------------------------------------------------------------------- ratings (HTTP)
class RatingEntry(TypedDict):
    participant: str  # "profile:<id>" or "bot:<level>"
    name: str | None
    mu: float
    sigma: float
    rating: int  # the rating shown (arena.skill.shown: 1500 at the start, never negative)
    games: int
    provisional: bool


class Leaderboard(TypedDict):
    game: str  # "<variant>-<players>"
    variant: str
    players: int
    provisional_games: int
    ratings: list[RatingEntry]


class TableSeatRating(TypedDict):
    """A seat's rating at its table's game: now, and what this table did to it once rated."""

    rating: int
    games: int
    provisional: bool
    change: int | None  # +14 / -9 once the table is rated; None before (or never)


class TableRatings(TypedDict):
    """``GET /api/tables/{id}/ratings``: the rating of each seat's player at the table's game."""

    table: str
    game: str
    rated: bool  # the table counts for ratings
    done: bool  # the table has been rated (its changes are final)
    seats: list[TableSeatRating | None]  # None: a bot, a free seat, a person without a profile


MatchStatus = Literal["waiting", "seated"]


class MatchState(TypedDict):
    """``POST /api/match`` and ``GET /api/match/{ticket}``: a quick-match ticket's state."""

    ticket: str  # the ticket's secret: only its browser polls it
    status: MatchStatus
    waited: float  # seconds since it was queued
    rating: int  # the person's shown rating at that game
    gap: int  # the rating gap accepted now (it widens with the wait)
    queued: int  # people waiting for the same game
    bots_after: float | None  # seconds until bots may fill the table (None: people only)
    invited: str | None  # the profile this ticket invites (None: anyone of a close rating)
    table: str | None  # once seated: the table, the seat and its token
    seat: int | None
    token: str | None


class OnlinePerson(TypedDict):
    profile: str
    name: str
    game: str  # "<variant>-<players>"
    variant: str
    players: int
    doing: Literal["waiting", "playing", "queued"]  # at a table waiting for players, playing, in quick match
    table: str | None  # a public table's id (to watch or join); None for a private one or the queue


class Invitation(TypedDict):
    profile: str  # who invites
    name: str
    game: str  # "<variant>-<players>"
    variant: str
    players: int
    options: dict[str, Any]  # the rules, to accept with the same game


class OnlineList(TypedDict):
    """``GET /api/online``: who is here and what they play."""

    people: list[OnlinePerson]  # at most 100, queued first
    count: int  # every person counted (the list may be cut)
    queued: dict[str, int]  # people waiting in quick match per game key
    invites: list[Invitation]  # with a profile's key: who invites that profile now


class RatingPoint(TypedDict):
    table: str
    at: float
    rating: int  # the rating shown after this table
    change: int
    provisional: bool


class RatingSeries(TypedDict):
    game: str
    variant: str
    players: int
    rating: int
    games: int
    provisional: bool
    points: list[RatingPoint]  # oldest first (the latest 200)


class RatingHistory(TypedDict):
    """``GET /api/profiles/{id}/ratings``: a profile's rating per game over time."""

    participant: str
    most_played: str | None  # the game key with the most rated games (the leaderboard's default)
    games: list[RatingSeries]  # most played first


# ---------------------------------------------------------------------------- history (HTTP)
GameResult = Literal["won", "lost", "tie"]


class HistorySeat(TypedDict):
    seat: int
    name: str
    named: bool  # False: the server's own name for the seat
    kind: SeatKind
    level: str | None  # a bot's level (null for a person)
    profile: str | None


class LuckSkill(TypedDict):
    hands: int  # the analysed hands they are over
    luck: float  # per hand: what the profile's side's deals were worth (points, net of the others)
    skill: float | None  # per hand: the points the others' decisions lost less the side's own


class HistoryGame(TypedDict):
    table: str  # the table id
    name: str
    variant: str
    players: int
    created: float
    finished: float  # when its last action was
    seat: int  # the profile's seat
    side: int
    partners: list[HistorySeat]
    opponents: list[HistorySeat]
    sides: list[list[int]]
    totals: list[int]  # the final totals per side
    winner: int | None
    result: GameResult  # the profile's side's
    rated: bool
    private: bool
    replay: str  # "/replay?table=<id>"
    luck: LuckSkill | None  # null until the game's analysis is stored


class HistoryStats(TypedDict):
    games: int
    wins: int
    ties: int
    losses: int
    win_rate: float | None  # wins / games (null with no game)
    hands: int  # hands played in those games
    points_per_hand: float | None  # the side's points per hand: null unless one game that scores points
    dominoes: int  # hands won by going out (the profile played its last tile)
    blocked_won: int  # blocked hands the profile's side won
    capicus: int | None  # hands won by going out with a capicú (null: no game counted has capicús)
    chuchazos: int | None  # the same for chuchazos
    luck: LuckSkill | None  # over the analysed games: null with none, or of several games


class GameHistory(TypedDict):
    profile: ProfileInfo
    game: str | None  # the variant filter
    games: list[HistoryGame]
    stats: HistoryStats  # over every game that matches the filter, not only this page
    next_before: float | None  # before= for the next page (null: no more)


# ------------------------------------------------------------------------ tournaments (HTTP)
class TournamentCreated(TypedDict):
    id: str
    link: str  # "/tournaments/<id>" (a private one's: "...?invite=<secret>")
    private: bool


class TournamentJoined(TypedDict):
    entrant: int  # the entrant's number (a pair's, for its second player)


class TournamentSummary(TypedDict):
    id: str
    name: str
    game: str  # the catalogue key of the game's name
    players: int
    format: str  # "swiss" or "round-robin"
    scoring: str  # "matchpoints" or "difference"
    rounds: int
    hands: int  # hands per round
    pairs: bool
    start_when: int  # entrants it waits for
    start_at: float | None  # or a time (seconds since 1970) after which two are enough
    status: Status
    round: int  # rounds opened so far
    entrants: int  # people's entrants (bots not counted)


class TournamentList(TypedDict):
    tournaments: list[TournamentSummary]


class TournamentEntrant(TypedDict):
    number: int
    name: str
    partner: str | None  # a pair's second player (null: none, or a bot plays that seat)
    bot: bool  # fills the field: never ranked
    you: bool


class TournamentTable(TypedDict):
    number: int  # from 1
    table: str  # the table's id: watch it at /t/<id>
    entrants: list[int]  # the entrant at each side
    over: bool
    away: list[int]  # seats of people not connected (a bot plays for them after the grace period)


class TournamentRound(TypedDict):
    round: int  # from 1
    commitment: str  # SHA-256 of the round's seed and a salt, published before its first hand
    tables: list[TournamentTable]


class TournamentStanding(TypedDict):
    rank: int | None  # null for a bot
    entrant: int
    score: float  # matchpoints, or the differences from the field's average
    difference: int
    head_to_head: int
    buchholz: float
    deals: int  # hands played


class TournamentResult(TypedDict):
    entrant: int
    table: int
    points: int
    result: int  # the side's points minus the most another side at its table scored
    score: float  # on this hand, against the results on the same tiles


class TournamentDeal(TypedDict):
    round: int
    hand: int
    side: int  # the side whose tiles these results held
    results: list[TournamentResult]  # best first


class TournamentSeat(TypedDict):
    table: str
    seat: int
    token: str


class TournamentState(TournamentSummary):
    entrants_list: list[TournamentEntrant]
    rounds_played: list[TournamentRound]
    standings: list[TournamentStanding]
    deals: list[TournamentDeal]
    you: TournamentSeat | None  # your seat at your table in play (with your profile's key)
    entrant: int | None  # your entrant
