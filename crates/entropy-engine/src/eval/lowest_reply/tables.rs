//! The tables behind [`super::replies_to_placements`]: every line's state, what each placement
//! and each chip's departure change, and the best slides a placement leaves alone, computed once
//! per position so that each placement pays only for the slides it changes.

use entropy_core::line;
use entropy_core::score::line_score;
use entropy_core::{Cell, Position, MAX_SIDE};

use crate::eval::features::{column_byte, shift, touching};

/// The cell at `index` (`8 * row + column`) of a bitboard.
pub(super) fn cell(index: usize) -> Cell {
    Cell::new(index / 8, index % 8).expect("a bitboard index of the board")
}

/// The set bits of a bitboard, lowest first.
pub(super) fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let index = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (index < 64).then_some(index)
    })
}

/// Lines along rows (direction 0) and along columns (direction 1).
const ROWS: usize = 0;
const COLUMNS: usize = 1;

/// The index of position `p` of line `i` in direction `d` in the one-byte-per-row layout:
/// `8 * row + column`.
#[inline(always)]
fn at(d: usize, i: usize, p: usize) -> usize {
    if d == ROWS {
        8 * i + p
    } else {
        8 * p + i
    }
}

/// Line `i` in direction `D`'s bits of a bitboard, as positions along the line.
#[inline(always)]
fn along<const D: usize>(bits: u64, i: usize) -> u8 {
    if D == ROWS {
        (bits >> (8 * i)) as u8
    } else {
        column_byte(bits, i)
    }
}

/// The positions of a line whose chip (or empty cell) can share a palindrome with a chip
/// placed at empty position `t`, given the line's other chips: the run of chips through `t`
/// and the cell just beyond it at either end (by table: [`run_reach_of`] for every case).
#[inline(always)]
fn run_reach(occupancy: u8, t: usize) -> u8 {
    RUN_REACH[occupancy as usize & 0x7F][t]
}

static RUN_REACH: [[u8; MAX_SIDE]; 128] = {
    let mut table = [[0; MAX_SIDE]; 128];
    let mut occupancy = 0;
    while occupancy < 128 {
        let mut t = 0;
        while t < MAX_SIDE {
            table[occupancy][t] = run_reach_of(occupancy as u8, t);
            t += 1;
        }
        occupancy += 1;
    }
    table
};

/// [`run_reach`] computed. (Bits past the line's end may be set.)
const fn run_reach_of(occupancy: u8, t: usize) -> u8 {
    let x = occupancy as u32 | 1 << t;
    // The runs' lengths upwards and downwards from t, t included.
    let up = (!(x >> t)).trailing_zeros() as usize;
    let down = (!(x.reverse_bits() >> (31 - t))).trailing_zeros() as usize;
    let upto = ((2u32 << (t + up)) - 1) as u8;
    if down > t {
        upto
    } else {
        upto & !((1u8 << (t - down)) - 1)
    }
}

/// A gain no slide has: the best of an empty set.
pub(super) const NONE: i32 = i16::MIN as i32;

/// A line's key, score and occupancy.
#[derive(Clone, Copy, Default)]
struct LineState {
    key: u32,
    score: i32,
    occupancy: u8,
}

/// Where a placement would put its chip, and how far along its lines the chip reaches: what
/// decides which slides it changes.
#[derive(Clone, Copy)]
pub(super) struct Spot {
    row: usize,
    column: usize,
    /// The reach of the chip along its row (index 0) and its column (1).
    reach: [u8; 2],
}

impl Spot {
    /// Whether a slide along line `i` in direction `d` from position `p` to `q`, scored before
    /// the placement, gains something else after it (or is no longer a move).
    #[inline(always)]
    fn changes(&self, d: usize, i: usize, p: usize, q: usize) -> bool {
        let (line, cross) = if d == ROWS {
            (self.row, self.column)
        } else {
            (self.column, self.row)
        };
        if i == line {
            let ends = 1 << p | 1 << q;
            // In the reach, or through the placed chip's cell.
            self.reach[d] & ends != 0 || (p.min(q) < cross && cross < p.max(q))
        } else {
            (p == cross || q == cross) && self.reach[1 - d] & 1 << i != 0
        }
    }
}

/// The chip a placement would put on the board and the two lines it joins, as they would be.
pub(super) struct Placed {
    spot: Spot,
    /// Its row (index 0) and column (index 1) with the chip.
    lines: [LineState; 2],
}

impl Placed {
    /// The line the chip joins in direction `D`, and the chip's position along it.
    #[inline(always)]
    fn line<const D: usize>(&self) -> (usize, usize) {
        if D == ROWS {
            (self.spot.row, self.spot.column)
        } else {
            (self.spot.column, self.spot.row)
        }
    }

    /// The chips of the run through the chip along its line in direction `D` (itself
    /// included), and the run's lowest and highest positions.
    #[inline(always)]
    fn run<const D: usize>(&self) -> (u8, usize, usize) {
        let run = self.spot.reach[D] & self.lines[D].occupancy;
        let (low, high) = (
            run.trailing_zeros() as usize,
            7 - run.leading_zeros() as usize,
        );
        (run, low, high)
    }
}

/// The slide onto an empty cell along one line from the nearest chip on one side: what it
/// gains but for the line crossing there, and the chip's colour; [`Arrival::NONE`] where no chip
/// is on that side.
#[derive(Clone, Copy)]
struct Arrival {
    gain: i16,
    colour: u8,
}

impl Arrival {
    /// No slide: a loss larger than any line's score, with no colour, so that it can be scored
    /// like the others (the line as it is) and never be the best.
    const NONE: Arrival = Arrival {
        gain: -1000,
        colour: 0,
    };
}

/// What the replies to every placement share, from the position before it.
pub(super) struct Tables {
    n: usize,
    /// Empty cells next to a chip, and all empty cells, before the placement.
    touching: u64,
    vacant: u64,
    /// Every line's key, score and occupancy, by direction and index.
    lines: [[LineState; MAX_SIDE]; 2],
    /// For each empty cell, the score of its row (index 0) and column (1) with the placed
    /// colour there.
    with_chip: [[u8; 64]; 2],
    /// For each empty cell, what placing the chip there adds to Order's score.
    pub(super) placing: [i16; 64],
    /// For each chip, what its row (index 0) and its column (1) lose when it leaves.
    leave: [[i8; 64]; 2],
    /// For each chip, the best over its slides along its row (0) or column (1) onto a touching
    /// cell of what that line gains plus what the line crossing the destination gains (the
    /// terms a placement on the chip's crossing line leaves alone), or [`NONE`].
    best_out: [[i16; 64]; 2],
    /// For each empty cell and direction, the slides onto it along that line from the
    /// nearest chip below and above: found by the scan for touching cells, on demand for the
    /// others (those in `arrived`).
    arrivals: [[[Arrival; 2]; 64]; 2],
    arrived: u64,
    /// For each empty cell, what a chip of each colour would add to its row (0) or column (1);
    /// `i8::MIN` where not yet looked up.
    join: [[[i8; 8]; 64]; 2],
    pub(super) far: FarSlides,
}

impl Tables {
    /// Boxed: the tables are a few kilobytes, moved out of the function and into the caller's
    /// candidates.
    pub(super) fn of(position: &Position, chip: u32) -> Box<Tables> {
        let board = position.board();
        let n = board.size().side();
        // Lines past the board's side stay empty.
        let lines = [
            std::array::from_fn(|i| LineState {
                key: board.row_key(i),
                score: position.row_score(i) as i32,
                occupancy: board.row_occupancy(i),
            }),
            std::array::from_fn(|i| LineState {
                key: board.column_key(i),
                score: position.column_score(i) as i32,
                occupancy: board.column_occupancy(i),
            }),
        ];
        let mut tables = Box::new(Tables {
            n,
            touching: touching(position),
            vacant: board.vacant_bits(),
            lines,
            with_chip: [[0; 64]; 2],
            placing: [0; 64],
            leave: [[0; 64]; 2],
            best_out: [[NONE as i16; 64]; 2],
            arrivals: [[[Arrival::NONE; 2]; 64]; 2],
            arrived: 0,
            join: [[[i8::MIN; 8]; 64]; 2],
            far: FarSlides::new(),
        });
        tables.line_changes::<ROWS>(chip);
        tables.line_changes::<COLUMNS>(chip);
        for index in bits(tables.vacant) {
            let (r, c) = (index / 8, index % 8);
            let added = tables.with_chip[ROWS][index] as i32
                + tables.with_chip[COLUMNS][index] as i32
                - tables.lines[ROWS][r].score
                - tables.lines[COLUMNS][c].score;
            tables.placing[index] = added as i16;
        }
        for i in 0..n {
            tables.scan_line::<ROWS>(i);
            tables.scan_line::<COLUMNS>(i);
        }
        tables
    }

    /// Fills `leave[D]` and `with_chip[D]`: each line's score in direction `D` without each of
    /// its chips, and with the placed chip on each of its empty cells.
    fn line_changes<const D: usize>(&mut self, chip: u32) {
        let full = ((1u32 << self.n) - 1) as u8;
        for i in 0..self.n {
            let line = self.lines[D][i];
            for p in line::bits(line.occupancy) {
                let without = line.key & !(7 << shift(p));
                self.leave[D][at(D, i, p)] = (line_score(without) as i32 - line.score) as i8;
            }
            for p in line::bits(!line.occupancy & full) {
                self.with_chip[D][at(D, i, p)] = line_score(line.key | chip << shift(p)) as u8;
            }
        }
    }

    /// Scores the slides along line `i` in direction `D` onto touching cells: keeps the best
    /// gaining ones in `far`, each chip's best in `best_out` and the slides onto each cell
    /// from the nearest chips in `arrivals`.
    fn scan_line<const D: usize>(&mut self, i: usize) {
        let line = self.lines[D][i];
        let near = along::<D>(self.touching, i);
        for p in line::bits(line.occupancy) {
            let destinations = line::slides(self.n, line.occupancy, p) & near;
            if destinations == 0 {
                continue;
            }
            let colour = (line.key >> shift(p)) & 7;
            let leave = self.leave[1 - D][at(D, i, p)] as i32;
            let mut best = NONE;
            let without = line.key & !(7 << shift(p));
            for q in line::bits(destinations) {
                let gain = line_score(without | colour << shift(q)) as i32 - line.score;
                // Every slide onto q comes from the nearest chip on its side.
                self.arrivals[D][at(D, i, q)][usize::from(p > q)] = Arrival {
                    gain: (gain + leave) as i16,
                    colour: colour as u8,
                };
                let partial = gain + self.join(1 - D, at(D, i, q), colour);
                best = best.max(partial);
                if partial + leave > 0 {
                    self.far.insert(FarSlide {
                        gain: partial + leave,
                        direction: D as u8,
                        line: i as u8,
                        from: p as u8,
                        to: q as u8,
                    });
                }
            }
            self.best_out[D][at(D, i, p)] = best as i16;
        }
    }

    /// What the line in direction `d` through the empty cell `index` gains with a chip of
    /// colour `colour` there, before the placement.
    #[inline(always)]
    fn join(&mut self, d: usize, index: usize, colour: u32) -> i32 {
        let known = self.join[d][index][colour as usize];
        if known != i8::MIN {
            return known as i32;
        }
        // The line and the cell's position along it.
        let (i, p) = if d == ROWS {
            (index / 8, index % 8)
        } else {
            (index % 8, index / 8)
        };
        let line = self.lines[d][i];
        let gain = (line_score(line.key | colour << shift(p)) as i32 - line.score) as i8;
        self.join[d][index][colour as usize] = gain;
        gain as i32
    }

    /// The chip placed at `spot` and the two lines it joins.
    #[inline(always)]
    pub(super) fn placed(&self, spot: Spot, chip: u32) -> Placed {
        let (r, c) = (spot.row, spot.column);
        let index = at(ROWS, r, c);
        let [row, column] = [self.lines[ROWS][r], self.lines[COLUMNS][c]];
        Placed {
            spot,
            lines: [
                LineState {
                    key: row.key | chip << shift(c),
                    score: self.with_chip[ROWS][index] as i32,
                    occupancy: row.occupancy | 1 << c,
                },
                LineState {
                    key: column.key | chip << shift(r),
                    score: self.with_chip[COLUMNS][index] as i32,
                    occupancy: column.occupancy | 1 << r,
                },
            ],
        }
    }

    /// Where a chip placed on row `r`, column `c` would be, and its reach.
    #[inline(always)]
    pub(super) fn spot(&self, r: usize, c: usize) -> Spot {
        Spot {
            row: r,
            column: c,
            reach: [
                run_reach(self.lines[ROWS][r].occupancy, c),
                run_reach(self.lines[COLUMNS][c].occupancy, r),
            ],
        }
    }

    /// The slides onto the empty cell at position `m` of line `i` in direction `d` from the
    /// nearest chip on either side, for a cell that touches no chip (the scan left it out).
    fn slides_onto(&self, d: usize, i: usize, m: usize) -> [Arrival; 2] {
        let line = self.lines[d][i];
        let below = line.occupancy & ((1 << m) - 1);
        let above = line.occupancy & !((2u32 << m) - 1) as u8;
        let sources = [
            (below != 0).then(|| 7 - below.leading_zeros() as usize),
            (above != 0).then(|| above.trailing_zeros() as usize),
        ];
        sources.map(|p| match p {
            None => Arrival::NONE,
            Some(p) => {
                let colour = (line.key >> shift(p)) & 7;
                let moved = line.key & !(7 << shift(p)) | colour << shift(m);
                let leave = self.leave[1 - d][at(d, i, p)] as i32;
                Arrival {
                    gain: (line_score(moved) as i32 - line.score + leave) as i16,
                    colour: colour as u8,
                }
            }
        })
    }

    /// The best gain (or the least loss) among the slides a placement changes or makes; or, as
    /// soon as one gains more than `limit`, that gain.
    pub(super) fn changed_best(&mut self, placed: &Placed, limit: i32) -> i32 {
        let bit = 1u64 << at(ROWS, placed.spot.row, placed.spot.column);
        let touching =
            (self.touching | bit << 1 | bit >> 1 | bit << 8 | bit >> 8) & self.vacant & !bit;
        let mut best = self.placed_line_best::<ROWS>(placed, touching, limit);
        if best > limit {
            return best;
        }
        best = best.max(self.placed_line_best::<COLUMNS>(placed, touching, limit));
        if best > limit {
            return best;
        }
        best = best.max(self.crossing_best::<ROWS>(placed, limit));
        if best > limit {
            return best;
        }
        best.max(self.crossing_best::<COLUMNS>(placed, limit))
    }

    /// The best changed slide along the line in direction `D` that the chip joins (the chip's
    /// own included), or the first that gains more than `limit`: the slides of the chips at
    /// the ends of the run through it (the others cannot move along the line) and the slides
    /// onto the cells just beyond the run from the other side.
    fn placed_line_best<const D: usize>(
        &mut self,
        placed: &Placed,
        touching: u64,
        limit: i32,
    ) -> i32 {
        let (i, _) = placed.line::<D>();
        let line = placed.lines[D];
        let near = along::<D>(touching, i);
        let (_, low, high) = placed.run::<D>();
        let mut best = self.run_end_best::<D>(placed, low, near, limit);
        if high != low && best <= limit {
            best = best.max(self.run_end_best::<D>(placed, high, near, limit));
        }
        // The cells just beyond the run, each with the nearest chip on its far side.
        if low > 0 && best <= limit {
            let others = line.occupancy & ((1u8 << (low - 1)) - 1);
            if others != 0 && line.occupancy & 1 << (low - 1) == 0 {
                let p = 7 - others.leading_zeros() as usize;
                best = best.max(self.placed_line_slide::<D>(placed, p, low - 1));
            }
        }
        if high + 1 < self.n && best <= limit {
            let others = line.occupancy & !((4u8 << high) - 1);
            if others != 0 && line.occupancy & 2 << high == 0 {
                let p = others.trailing_zeros() as usize;
                best = best.max(self.placed_line_slide::<D>(placed, p, high + 1));
            }
        }
        best
    }

    /// The best slide along the placed chip's line in direction `D` of the chip at position
    /// `p` (an end of the run through the placed chip), or the first that gains more than
    /// `limit`.
    #[inline(always)]
    fn run_end_best<const D: usize>(
        &mut self,
        placed: &Placed,
        p: usize,
        near: u8,
        limit: i32,
    ) -> i32 {
        let (i, t) = placed.line::<D>();
        let line = placed.lines[D];
        let mut best = NONE;
        let destinations = line::slides(self.n, line.occupancy, p) & near;
        if destinations == 0 {
            return best;
        }
        if p != t {
            for q in line::bits(destinations) {
                best = best.max(self.placed_line_slide::<D>(placed, p, q));
                if best > limit {
                    break;
                }
            }
            return best;
        }
        // The placed chip moving on is the chip placed further on. (Every position, masked:
        // cheaper than a loop over the destinations' bits, whose end is hard to predict.)
        let placed_here = self.placing[at(D, i, t)] as i32;
        for q in 0..MAX_SIDE {
            let gain = self.placing[at(D, i, q)] as i32 - placed_here;
            best = best.max(if destinations >> q & 1 != 0 {
                gain
            } else {
                NONE
            });
        }
        best
    }

    /// What the slide along the placed chip's line in direction `D` of another chip, from
    /// position `p` to `q`, gains.
    #[inline(always)]
    fn placed_line_slide<const D: usize>(&mut self, placed: &Placed, p: usize, q: usize) -> i32 {
        let (i, _) = placed.line::<D>();
        let line = placed.lines[D];
        let colour = (line.key >> shift(p)) & 7;
        let moved = line.key & !(7 << shift(p)) | colour << shift(q);
        // The lines crossing at p and q are not the placed chip's.
        line_score(moved) as i32 - line.score
            + self.leave[1 - D][at(D, i, p)] as i32
            + self.join(1 - D, at(D, i, q), colour)
    }

    /// The best changed slide along the lines crossing the line in direction `D` that the
    /// chip joins, from or to a cell of it in the reach (but the chip's): only what the line
    /// gains or loses with the moving chip changes. Once one gains more than `limit`, the run's
    /// chips are left out.
    fn crossing_best<const D: usize>(&mut self, placed: &Placed, limit: i32) -> i32 {
        let (m, t) = placed.line::<D>();
        let line = placed.lines[D];
        let (run, low, high) = placed.run::<D>();
        // The empty cells just beyond the run: slides onto them.
        let mut best = NONE;
        if low > 0 {
            best = self.best_arrival::<D>(placed, low - 1);
        }
        if high + 1 < self.n {
            best = best.max(self.best_arrival::<D>(placed, high + 1));
        }
        // The run's other chips: their slides away.
        let chips = run & !(1 << t);
        if chips != 0 && best <= limit {
            for pos in line::bits(chips) {
                let out = self.best_out[1 - D][at(D, m, pos)];
                if out != NONE as i16 {
                    let without = line.key & !(7 << shift(pos));
                    best = best.max(out as i32 + line_score(without) as i32 - line.score);
                }
            }
        }
        best
    }

    /// The best slide along the line crossing the placed chip's line in direction `D` at the
    /// empty position `pos` onto it.
    #[inline(always)]
    fn best_arrival<const D: usize>(&mut self, placed: &Placed, pos: usize) -> i32 {
        let (m, _) = placed.line::<D>();
        let line = placed.lines[D];
        let index = at(D, m, pos);
        if (self.touching | self.arrived) >> index & 1 == 0 {
            // Away from every chip: the scan left it out.
            self.arrived |= 1 << index;
            let (r, c) = (index / 8, index % 8);
            self.arrivals[ROWS][index] = self.slides_onto(ROWS, r, c);
            self.arrivals[COLUMNS][index] = self.slides_onto(COLUMNS, c, r);
        }
        let [below, above] = self.arrivals[1 - D][at(D, m, pos)].map(|slide| {
            let with = line.key | u32::from(slide.colour) << shift(pos);
            slide.gain as i32 + line_score(with) as i32
        });
        below.max(above) - line.score
    }
}

/// How many of the best slides [`FarSlides`] keeps.
const FAR_SLIDES: usize = 12;

/// A gaining slide before the placement: along line `line` in direction `direction` from
/// position `from` to `to`.
#[derive(Clone, Copy, Default)]
struct FarSlide {
    gain: i32,
    direction: u8,
    line: u8,
    from: u8,
    to: u8,
}

/// The best gaining slides of a position before the placement, best first.
pub(super) struct FarSlides {
    best: [FarSlide; FAR_SLIDES],
    len: usize,
    /// Whether every gaining slide is in `best`.
    complete: bool,
}

impl FarSlides {
    fn new() -> FarSlides {
        FarSlides {
            best: [FarSlide::default(); FAR_SLIDES],
            len: 0,
            complete: true,
        }
    }

    fn insert(&mut self, slide: FarSlide) {
        if self.len == FAR_SLIDES {
            self.complete = false;
            if slide.gain <= self.best[FAR_SLIDES - 1].gain {
                return;
            }
            self.len -= 1;
        }
        let mut at = self.len;
        while at > 0 && self.best[at - 1].gain < slide.gain {
            self.best[at] = self.best[at - 1];
            at -= 1;
        }
        self.best[at] = slide;
        self.len += 1;
    }

    /// The best gain (0 if none) among the slides a placement leaves alone, or `None` if
    /// every kept slide is changed and some were not kept.
    pub(super) fn best_unaffected(&self, spot: &Spot) -> Option<i32> {
        let changed = |s: &&FarSlide| {
            spot.changes(
                s.direction as usize,
                s.line as usize,
                s.from as usize,
                s.to as usize,
            )
        };
        match self.best[..self.len].iter().find(|s| !changed(s)) {
            Some(slide) => Some(slide.gain),
            None if self.complete => Some(0),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_is_the_run_through_the_chip_and_one_beyond() {
        // Chips at 1, 2 and 5; a chip placed at 3 joins 1..=3, reaching 0..=4.
        assert_eq!(run_reach(0b010_0110, 3), 0b001_1111);
        // Alone at 0: itself and 1.
        assert_eq!(run_reach(0b101_0000, 0), 0b000_0011);
        // At 6 after a run 4..=5: 3..=6 (and the bit past the end).
        assert_eq!(run_reach(0b011_0000, 6) & 0x7F, 0b111_1000);
    }

    #[test]
    fn reach_table_equals_walking_along_the_line() {
        for occupancy in 0..128u8 {
            for t in (0..MAX_SIDE).filter(|&t| occupancy & 1 << t == 0) {
                let chip = |p: usize| p == t || occupancy & 1 << p != 0;
                let mut low = t;
                while low > 0 && chip(low - 1) {
                    low -= 1;
                }
                let mut high = t;
                while high + 1 < MAX_SIDE && chip(high + 1) {
                    high += 1;
                }
                // The run low..=high, and one cell beyond each end.
                let expected: u8 = (low.saturating_sub(1)..=(high + 1).min(MAX_SIDE - 1))
                    .map(|p| 1u8 << p)
                    .sum();
                assert_eq!(
                    run_reach(occupancy, t) & 0x7F,
                    expected,
                    "{occupancy:07b} {t}"
                );
            }
        }
    }
}
