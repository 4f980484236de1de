//! The evaluation's inputs: numbers that describe a position and predict Order's final score.
//! After the CodeCup 2023 silver write-up, plus sandwiches (an odd palindrome's centre scores
//! whatever fills it) and without its 2-turn mobility, which costs too much at every leaf.

use entropy_core::line;
use entropy_core::score::{line_score, BITS_PER_CELL};
use entropy_core::{Cell, Move, Position, MAX_SIDE};

use super::lines::{line_tables, LineEntry};

/// How many features there are.
pub const FEATURES: usize = 15;

/// The features' names, in order, as written in weight files.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "score",
    "threat_max",
    "threat_rest",
    "potential",
    "sandwiches",
    "holes1",
    "holes2",
    "ring1",
    "ring2",
    "centre_distance",
    "bag_max",
    "mobility",
    "idle_mobility",
    "open_windows",
    "gap_pairs",
];

/// A position's features, in the order of [`FEATURE_NAMES`].
pub type FeatureVector = [f64; FEATURES];

/// Computes every feature of a position.
///
/// - `score`: Order's score now.
/// - `threat_max`: the most one slide would add now; `threat_rest`: what the other slides that
///   add something would add, summed.
/// - `potential`: over every line, empty cell and colour, the score one chip there would add,
///   divided by the number of colours.
/// - `sandwiches`: empty cells between two chips of one colour in a row or column.
/// - `holes1`, `holes2`: empty areas of one cell, and of two adjacent cells, walled in by chips
///   or the edge; good dumping places for Chaos.
/// - `ring1`, `ring2`: chips on the outermost ring of cells and on the ring inside it.
/// - `centre_distance`: the chips' Manhattan distances to the centre, summed.
/// - `bag_max`: the most chips of one colour left in the bag.
/// - `mobility`: Order's slides; `idle_mobility`: the slides of chips in no palindrome.
/// - `open_windows`: windows of three or more cells in a line that can still become palindromes
///   and already hold a mirrored pair of one colour.
/// - `gap_pairs`: the bot specification's pattern potential (pairs of one colour one, two or
///   three empty cells apart: 10, 5, 2), divided by 10.
pub fn features(position: &Position) -> FeatureVector {
    assemble(position, threats(position), &line_entries(position))
}

/// The table entries of a position's lines: rows first, then columns from [`MAX_SIDE`].
#[inline(always)]
fn line_entries(position: &Position) -> [LineEntry; LINES] {
    let board = position.board();
    let tables = line_tables(board.size().side());
    let mut entries = [LineEntry::default(); LINES];
    for i in 0..board.size().side() {
        entries[i] = tables.entry(board.row_key(i));
        entries[MAX_SIDE + i] = tables.entry(board.column_key(i));
    }
    entries
}

/// The features from the position's threats and its lines' table entries (rows first, then
/// columns from [`MAX_SIDE`]): what [`features`] and [`ChildFeatures`] share.
#[inline(always)]
fn assemble(
    position: &Position,
    threats: (u32, u32),
    entries: &[LineEntry; LINES],
) -> FeatureVector {
    let board = position.board();
    let n = board.size().side();
    let (threat_max, threat_rest) = threats;
    let mut potential = 0;
    let mut sandwiches = 0;
    let mut covered = 0u64;
    let mut open_windows = 0;
    let mut gap_pairs = 0;
    for i in 0..n {
        let (row, column) = (entries[i], entries[MAX_SIDE + i]);
        open_windows += row.open_windows as u32 + column.open_windows as u32;
        gap_pairs += row.gap_pairs as u32 + column.gap_pairs as u32;
        potential += row.potential as u32 + column.potential as u32;
        sandwiches += row.sandwiches as u32 + column.sandwiches as u32;
        covered |= (row.cover as u64) << (8 * i);
        covered |= transpose_line(column.cover, i);
    }
    let occupied = board.occupied_bits();
    let vacant = board.vacant_bits();
    let (holes1, holes2) = holes(vacant);
    let masks = ring_masks(n);
    let centre_distance: u32 = masks
        .distance
        .iter()
        .enumerate()
        .map(|(d, &mask)| d as u32 * (occupied & mask).count_ones())
        .sum();
    let idle = occupied & !covered;
    let mut idle_mobility = 0;
    let mut bits = idle;
    while bits != 0 {
        let at = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (r, c) = (at / 8, at % 8);
        idle_mobility += line::slides(n, board.row_occupancy(r), c).count_ones()
            + line::slides(n, board.column_occupancy(c), r).count_ones();
    }
    [
        position.score() as f64,
        threat_max as f64,
        threat_rest as f64,
        potential as f64 / n as f64,
        sandwiches as f64,
        holes1 as f64,
        holes2 as f64,
        (occupied & masks.rings[0]).count_ones() as f64,
        (occupied & masks.rings[1]).count_ones() as f64,
        centre_distance as f64,
        bag_max(position),
        board.slide_counts().total() as f64,
        idle_mobility as f64,
        open_windows as f64,
        gap_pairs as f64 / 10.0,
    ]
}

/// Rows and columns, indexed as a position's line scores are: row `i` is line `i`, column `j`
/// line `MAX_SIDE + j`.
const LINES: usize = 2 * MAX_SIDE;

/// A set of lines, bit `l` for line `l` (see [`LINES`]).
pub type LineSet = u16;

/// The set of lines a move changes: a placement its row and column, a slide its own line and
/// the crossing lines at both ends, a draw or a pass none.
#[inline]
pub fn changed_lines(mv: Move) -> LineSet {
    match mv {
        Move::Place { cell, .. } => row_line(cell.row()) | column_line(cell.column()),
        Move::Slide { from, to } if from.row() == to.row() => {
            row_line(from.row()) | column_line(from.column()) | column_line(to.column())
        }
        Move::Slide { from, to } => {
            column_line(from.column()) | row_line(from.row()) | row_line(to.row())
        }
        Move::Draw(_) | Move::Pass => 0,
    }
}

#[inline(always)]
fn row_line(row: usize) -> LineSet {
    1 << row
}

#[inline(always)]
fn column_line(column: usize) -> LineSet {
    1 << (MAX_SIDE + column)
}

/// What a position's children share with it, for evaluating them one move later (the
/// evaluation updated by the move, as NNUE accumulators are): its lines' table entries. A move
/// changes two or three lines, so a child costs the entries of those lines instead of all
/// fourteen (the tables are too large for the processor's caches: each entry is a likely
/// miss). The threat scan is done afresh: about half of all slides cross a changed line, and
/// picking them out costs what rescanning does (measured). [`features`] is the slow twin.
#[derive(Clone, Debug)]
pub struct ChildFeatures {
    entries: [LineEntry; LINES],
}

impl Default for ChildFeatures {
    fn default() -> ChildFeatures {
        ChildFeatures {
            entries: [LineEntry::default(); LINES],
        }
    }
}

impl ChildFeatures {
    /// Takes in `parent`.
    #[inline]
    pub fn set_parent(&mut self, parent: &Position) {
        self.entries = line_entries(parent);
    }

    /// The features of `child`, which is the parent after a move that changed the lines
    /// `changed` ([`changed_lines`]).
    #[inline]
    pub fn of_child(&self, child: &Position, changed: LineSet) -> FeatureVector {
        let board = child.board();
        let tables = line_tables(board.size().side());
        let mut entries = self.entries;
        for l in line::bits(changed as u8 & 0x7F) {
            entries[l] = tables.entry(board.row_key(l));
        }
        for l in line::bits((changed >> MAX_SIDE) as u8) {
            entries[MAX_SIDE + l] = tables.entry(board.column_key(l));
        }
        assemble(child, threats(child), &entries)
    }
}

/// Where `bag_max` is in a [`FeatureVector`]: the one feature that depends on the bag, not
/// only on the board.
pub const BAG_MAX: usize = 10;

/// The `bag_max` feature: the most chips of one colour left in the bag.
#[inline]
pub fn bag_max(position: &Position) -> f64 {
    let most = position
        .size()
        .game_colours()
        .map(|c| position.bag().count(c))
        .max()
        .unwrap_or(0);
    most as f64
}

/// The features of a position from those of another position on the same board: all but
/// [`BAG_MAX`] depend on the board alone. A chance node's children (one per colour drawn)
/// share their board, so their features are computed once.
#[inline]
pub fn features_on_board(position: &Position, same_board: &FeatureVector) -> FeatureVector {
    let mut features = *same_board;
    features[BAG_MAX] = bag_max(position);
    features
}

/// The largest gain of one slide, and the sum of the other positive gains.
///
/// A slide removes a chip from its cell and adds it to another. Removing never raises a line's
/// score and adding raises it only next to a chip of the same line, so a slide can gain only if
/// its destination touches a chip; the others are skipped. [`threats_slow`] is the plain twin.
pub fn threats(position: &Position) -> (u32, u32) {
    let touching = touching(position);
    let (mut best, mut total) = (0i32, 0i32);
    for along_rows in [true, false] {
        for i in 0..position.size().side() {
            scan_line(position, touching, along_rows, i, |gain, _, _| {
                if gain > 0 {
                    best = best.max(gain);
                    total += gain;
                }
            });
        }
    }
    (best as u32, (total - best) as u32)
}

/// Calls `f(from, to, gain)` for every slide that can gain (its destination touches a chip),
/// in the order of [`Position::for_each_slide`] among them, with the score it gains (negative
/// if it loses).
pub fn for_each_touching_slide(position: &Position, mut f: impl FnMut(Cell, Cell, i32)) {
    let touching = touching(position);
    for along_rows in [true, false] {
        for i in 0..position.size().side() {
            scan_line(position, touching, along_rows, i, |gain, p, q| {
                let (from, to) = if along_rows {
                    (Cell::new(i, p), Cell::new(i, q))
                } else {
                    (Cell::new(p, i), Cell::new(q, i))
                };
                f(from.expect("on the board"), to.expect("on the board"), gain);
            });
        }
    }
}

/// A chip about to leave position `p` of row (column) `i`: what all its slides along that
/// line share, so a scan over its destinations computes it once.
struct Leaving {
    along_rows: bool,
    i: usize,
    colour: u32,
    /// The line's key without the chip.
    without: u32,
    /// The line's score now.
    line_now: i32,
    /// What the crossing line through the chip's cell loses with it.
    removed: i32,
}

impl Leaving {
    #[inline(always)]
    fn new(position: &Position, along_rows: bool, i: usize, p: usize) -> Leaving {
        let board = position.board();
        let (key, line_now) = if along_rows {
            (board.row_key(i), position.row_score(i))
        } else {
            (board.column_key(i), position.column_score(i))
        };
        let (from_key, from_now) = crossing(position, along_rows, p);
        Leaving {
            along_rows,
            i,
            colour: (key >> shift(p)) & 7,
            without: key & !(7 << shift(p)),
            line_now: line_now as i32,
            removed: line_score(from_key & !(7 << shift(i))) as i32 - from_now as i32,
        }
    }

    /// The score the slide to position `q` of the line gains.
    #[inline(always)]
    fn gain_to(&self, position: &Position, q: usize) -> i32 {
        let along = line_score(self.without | self.colour << shift(q)) as i32 - self.line_now;
        let (to_key, to_now) = crossing(position, self.along_rows, q);
        let added = line_score(to_key | self.colour << shift(self.i)) as i32 - to_now as i32;
        along + self.removed + added
    }
}

/// The bit offset of position `q` of a line key.
#[inline(always)]
pub(super) fn shift(q: usize) -> u32 {
    BITS_PER_CELL * q as u32
}

/// Empty cells next to a chip: the only destinations where a slide can gain.
#[inline(always)]
pub(super) fn touching(position: &Position) -> u64 {
    let board = position.board();
    let occupied = board.occupied_bits();
    (occupied << 1 | occupied >> 1 | occupied << 8 | occupied >> 8) & board.vacant_bits()
}

/// The slides along row (or column) `i` whose destination is in `touching`: calls
/// `offer(gain, from, to)` (positions along the line) for each.
#[inline(always)]
fn scan_line(
    position: &Position,
    touching: u64,
    along_rows: bool,
    i: usize,
    mut offer: impl FnMut(i32, usize, usize),
) {
    let board = position.board();
    let n = board.size().side();
    let occupancy = if along_rows {
        board.row_occupancy(i)
    } else {
        board.column_occupancy(i)
    };
    // Destinations touching a chip, as positions along this line.
    let near = if along_rows {
        (touching >> (8 * i)) as u8
    } else {
        column_byte(touching, i)
    };
    for p in line::bits(occupancy) {
        let destinations = line::slides(n, occupancy, p) & near;
        if destinations == 0 {
            continue;
        }
        let leaving = Leaving::new(position, along_rows, i, p);
        for q in line::bits(destinations) {
            offer(leaving.gain_to(position, q), p, q);
        }
    }
}

/// The key and score of the line crossing a row (a column) at position `p`.
#[inline(always)]
fn crossing(position: &Position, along_rows: bool, p: usize) -> (u32, u32) {
    let board = position.board();
    if along_rows {
        (board.column_key(p), position.column_score(p))
    } else {
        (board.row_key(p), position.row_score(p))
    }
}

/// Column `c` of a one-byte-per-row bitboard as a byte (bit `r` for row `r`).
#[inline(always)]
pub(super) fn column_byte(bits: u64, column: usize) -> u8 {
    // Move the column to bit 0 of each byte, then gather the bytes' low bits by multiplication:
    // bit 8r lands on bit 56 + r, carry-free as each product term hits a distinct position.
    let lows = (bits >> column) & 0x0001_0101_0101_0101;
    (lows.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8 & 0x7F
}

/// The plain twin of [`threats`]: every slide, scored by [`Position::score_after_slide`].
pub fn threats_slow(position: &Position) -> (u32, u32) {
    let now = position.score();
    let (mut best, mut total) = (0, 0);
    position.for_each_slide(|from, to| {
        let gain = position.score_after_slide(from, to).saturating_sub(now);
        best = best.max(gain);
        total += gain;
    });
    (best, total - best)
}

/// Spreads a column's bits (bit `r` for row `r`) into the one-byte-per-row layout at column `c`.
#[inline]
fn transpose_line(bits: u8, column: usize) -> u64 {
    // Multiplying by the sum of 2^(7k), k = 0..7, copies bit r to every position r + 7k without
    // carries (r < 7); the copy at k = r lands on 8r, the start of row r, which the mask keeps.
    let spread = (bits as u64 & 0x7F).wrapping_mul(0x0408_1020_4081) & 0x0001_0101_0101_0101;
    spread << column
}

/// Empty areas of one cell, and of two adjacent cells, with no other empty neighbour.
fn holes(vacant: u64) -> (u32, u32) {
    // In the one-byte-per-row layout the eighth column is never vacant, so shifts cannot wrap.
    let neighbours = [vacant << 1, vacant >> 1, vacant << 8, vacant >> 8];
    let [a, b, c, d] = neighbours;
    let any = a | b | c | d;
    let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    let single = vacant & !any;
    let one = vacant & any & !two;
    let across = one & (one >> 1) & (vacant >> 1);
    let down = one & (one >> 8) & (vacant >> 8);
    (single.count_ones(), across.count_ones() + down.count_ones())
}

/// Cell masks of a board size for the positional features.
struct RingMasks {
    rings: [u64; 2],
    distance: [u64; MAX_SIDE * 2],
}

fn ring_masks(side: usize) -> &'static RingMasks {
    static MASKS: [std::sync::OnceLock<RingMasks>; MAX_SIDE + 1] =
        [const { std::sync::OnceLock::new() }; MAX_SIDE + 1];
    MASKS[side].get_or_init(|| {
        let mut masks = RingMasks {
            rings: [0; 2],
            distance: [0; MAX_SIDE * 2],
        };
        let centre = (side as isize - 1) / 2;
        for r in 0..side {
            for c in 0..side {
                let bit = 1u64 << (8 * r + c);
                let ring = r.min(c).min(side - 1 - r).min(side - 1 - c);
                if ring < 2 {
                    masks.rings[ring] |= bit;
                }
                let d = (r as isize - centre).abs() + (c as isize - centre).abs();
                masks.distance[d as usize] |= bit;
            }
        }
        masks
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    fn feature(position: &str, name: &str) -> f64 {
        let pos = parse_position(position).unwrap();
        let index = FEATURE_NAMES.iter().position(|&n| n == name).unwrap();
        features(&pos)[index]
    }

    #[test]
    fn fast_threats_equal_slow_threats_in_random_games() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for _ in 0..40 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    assert_eq!(threats(&pos), threats_slow(&pos), "{pos:?}");
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn a_board_shared_by_draws_gives_each_draw_its_own_features() {
        use rand::SeedableRng;
        assert_eq!(FEATURE_NAMES[BAG_MAX], "bag_max");
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for _ in 0..20 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    if pos.phase() == entropy_core::Phase::Draw {
                        let shared = features(&pos);
                        for mv in pos.legal_moves().iter() {
                            let mut drawn = pos;
                            drawn.play_unchecked(*mv);
                            assert_eq!(features_on_board(&drawn, &shared), features(&drawn));
                        }
                    }
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn children_updated_by_their_move_equal_children_from_scratch() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
        let mut memo = ChildFeatures::default();
        let mut children = 0;
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for _ in 0..12 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    memo.set_parent(&pos);
                    for &mv in pos.legal_moves().iter() {
                        let mut child = pos;
                        child.play_unchecked(mv);
                        if child.is_over() {
                            continue;
                        }
                        let changed = changed_lines(mv);
                        assert_eq!(
                            memo.of_child(&child, changed),
                            features(&child),
                            "{mv} from {pos:?}"
                        );
                        children += 1;
                    }
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
            }
        }
        assert!(children > 50_000, "{children}");
    }

    #[test]
    fn touching_slides_gain_what_the_position_says() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(10);
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for _ in 0..30 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    if pos.phase() == entropy_core::Phase::Slide {
                        let mut best = 0;
                        for_each_touching_slide(&pos, |from, to, gain| {
                            let after = pos.score_after_slide(from, to) as i32;
                            assert_eq!(after - pos.score() as i32, gain, "{pos:?}");
                            best = best.max(gain);
                        });
                        assert_eq!(best as u32, threats_slow(&pos).0, "{pos:?}");
                    }
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    /// The plain twin of the mobility features: every slide listed, its chip's cell looked up
    /// in the palindromes of its row and column found from the cells.
    fn mobility_slow(position: &Position) -> (f64, f64) {
        let board = position.board();
        let n = board.size().side();
        let number = |r: usize, c: usize| {
            let cell = Cell::new(r, c).expect("on the board");
            board.get(cell).map_or(0, |colour| colour.number())
        };
        let in_palindrome = |cell: Cell| {
            let (r, c) = (cell.row(), cell.column());
            let row: Vec<u8> = (0..n).map(|j| number(r, j)).collect();
            let column: Vec<u8> = (0..n).map(|i| number(i, c)).collect();
            super::super::lines::cover(&row) >> c & 1 == 1
                || super::super::lines::cover(&column) >> r & 1 == 1
        };
        let (mut all, mut idle) = (0.0, 0.0);
        position.for_each_slide(|from, _| {
            all += 1.0;
            if !in_palindrome(from) {
                idle += 1.0;
            }
        });
        (all, idle)
    }

    #[test]
    fn mobility_features_equal_their_slow_twin_in_random_games() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let index = |name| FEATURE_NAMES.iter().position(|&n| n == name).unwrap();
        let (mobility, idle) = (index("mobility"), index("idle_mobility"));
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for _ in 0..20 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    let f = features(&pos);
                    assert_eq!((f[mobility], f[idle]), mobility_slow(&pos), "{pos:?}");
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    #[test]
    fn column_bytes_gather_a_column() {
        let bits = (1u64 << 3) | (1 << (8 + 3)) | (1 << (48 + 3)) | (1 << (16 + 2));
        assert_eq!(column_byte(bits, 3), 0b100_0011);
        assert_eq!(column_byte(bits, 2), 0b000_0100);
    }

    #[test]
    fn transpose_spreads_a_column() {
        assert_eq!(
            transpose_line(0b101_0011, 2),
            (1 << 2) | (1 << 10) | (1 << 34) | (1 << 50)
        );
    }

    #[test]
    fn holes_and_rings() {
        // A full board but for Aa (a single hole) and Dd + De (a hole of two).
        let mut text: Vec<char> = "1234567".repeat(7).chars().collect();
        text[0] = '.';
        text[3 * 7 + 3] = '.';
        text[3 * 7 + 4] = '.';
        let board: String = text.into_iter().collect();
        let pos = format!("{board} draw");
        assert_eq!(feature(&pos, "holes1"), 1.0);
        assert_eq!(feature(&pos, "holes2"), 1.0);
        assert_eq!(feature(&pos, "ring1"), 23.0);
        assert_eq!(feature(&pos, "ring2"), 16.0);
    }

    #[test]
    fn threats_and_sandwiches() {
        // Row A: 1 1 . 1 . . . : Ad to Ac makes 111; Ad also sandwiches nothing; Ab-Ad is a 1.1 gap.
        let pos = "11.1.../......./......./......./......./......./....... slide";
        assert_eq!(feature(pos, "score"), 2.0);
        assert_eq!(feature(pos, "threat_max"), 5.0);
        assert_eq!(feature(pos, "sandwiches"), 1.0);
        assert_eq!(feature(pos, "bag_max"), 7.0);
        assert_eq!(feature(pos, "centre_distance"), 6.0 + 5.0 + 3.0);
    }
}
