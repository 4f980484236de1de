//! The heuristic plans of the bot specification (document 004), as bots for the ladder:
//! Plan 2 (heuristic Order), Plan 3 (spoiler Chaos), Plan 4 (gap-creation Chaos) and the hybrid
//! Chaos it recommends (60% spoiler, 40% gap creation). Where the plan's wording leaves room,
//! the choice made is stated on the function.

use entropy_core::{Board, Cell, Colour, Move, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::best_order_reply;
use crate::{Bot, Budget};

/// Which Chaos plan a [`HeuristicBot`] follows; as Order it always follows Plan 2.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChaosPlan {
    /// Plan 3: spoil Order's best reply and break its patterns.
    Spoiler,
    /// Plan 4: fragment colours and make awkward gaps, without lookahead.
    Gap,
    /// The plan's recommendation: 0.6 x spoiler + 0.4 x gap creation.
    Hybrid,
}

/// A bot following the specification's heuristic plans.
pub struct HeuristicBot {
    name: &'static str,
    plan: ChaosPlan,
    rng: Xoshiro256PlusPlus,
}

impl HeuristicBot {
    /// A bot with this name and Chaos plan, seeded for tie-breaks.
    pub fn new(name: &'static str, plan: ChaosPlan, seed: u64) -> HeuristicBot {
        HeuristicBot {
            name,
            plan,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        self.name
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        match position.phase() {
            Phase::Slide => order_plan(position),
            Phase::Place(colour) => {
                let mut best: Option<(f64, Cell)> = None;
                for cell in position.board().vacant_cells() {
                    let value = match self.plan {
                        ChaosPlan::Spoiler => spoiler(position, cell, colour),
                        ChaosPlan::Gap => gap_creation(position.board(), cell, colour),
                        ChaosPlan::Hybrid => {
                            0.6 * spoiler(position, cell, colour)
                                + 0.4 * gap_creation(position.board(), cell, colour)
                        }
                    };
                    // A tiny random jitter breaks ties reproducibly.
                    let value = value + self.rng.random_range(0.0..1e-6);
                    if best.is_none_or(|(b, _)| value > b) {
                        best = Some((value, cell));
                    }
                }
                let (_, cell) = best.expect("an empty cell while placing");
                Move::Place { colour, cell }
            }
            _ => Move::Pass,
        }
    }
}

/// The cells of each row and each column, as colour numbers (0 empty).
fn lines(board: &Board) -> Vec<Vec<u8>> {
    let n = board.size().side();
    let value = |r: usize, c: usize| {
        board
            .get(Cell::new(r, c).expect("on grid"))
            .map_or(0, Colour::number)
    };
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        out.push((0..n).map(|c| value(i, c)).collect());
        out.push((0..n).map(|r| value(r, i)).collect());
    }
    out
}

/// Plan 2's "pattern potential": pairs of one colour with only empty cells between them, worth
/// 10 one cell apart (`R_R`), 5 two apart (`R__R`), 2 three apart: the evaluation's `gap_pairs`
/// of a line (at most 30 on 7 cells, so never capped at 255).
fn pattern_potential(line: &[u8]) -> f64 {
    f64::from(crate::eval::lines::gap_pairs(line))
}

/// Plan 2's evaluation of a position for Order: immediate score x 100, pattern potential x 50,
/// board control x 30 (centre chips x 2, border chips x 1, same-colour pairs sharing a line
/// x 1.5), Chaos's opportunities x -40 (empty cells x 0.5, one-gap patterns x 2) and fertility
/// x 25 (lines with 1 to 4 empty cells: filled cells times distinct colours). The plan's colour
/// distribution term needs the next chip, which Order does not know when it moves; it is left
/// out.
pub fn order_evaluation(position: &Position) -> f64 {
    let board = position.board();
    let n = board.size().side();
    let lines = lines(board);
    let potential: f64 = lines.iter().map(|l| pattern_potential(l)).sum();
    let centre = (n as isize - 1) / 2;
    let mut centre_chips = 0.0;
    let mut border_chips = 0.0;
    for (cell, _) in board.chips() {
        let (r, c) = (cell.row() as isize, cell.column() as isize);
        if (r - centre).abs() <= 1 && (c - centre).abs() <= 1 {
            centre_chips += 1.0;
        }
        if r == 0 || c == 0 || r == n as isize - 1 || c == n as isize - 1 {
            border_chips += 1.0;
        }
    }
    let mut pairs = 0.0;
    let mut gaps = 0.0;
    let mut fertility = 0.0;
    for line in &lines {
        let filled: Vec<u8> = line.iter().copied().filter(|&c| c != 0).collect();
        for (i, a) in filled.iter().enumerate() {
            pairs += filled[i + 1..].iter().filter(|&b| b == a).count() as f64;
        }
        gaps += line
            .windows(3)
            .filter(|w| w[1] == 0 && w[0] != 0 && w[0] == w[2])
            .count() as f64;
        let empty = line.len() - filled.len();
        if (1..=4).contains(&empty) {
            let mut colours = filled.clone();
            colours.sort_unstable();
            colours.dedup();
            fertility += filled.len() as f64 * colours.len() as f64;
        }
    }
    let control = 2.0 * centre_chips + border_chips + 1.5 * pairs;
    let opportunities = 0.5 * board.vacant_count() as f64 + 2.0 * gaps;
    position.score() as f64 * 100.0 + potential * 50.0 + control * 30.0 - opportunities * 40.0
        + fertility * 25.0
}

/// Plan 2: the slide with the best evaluation, or pass if none beats the position as it is.
pub fn order_plan(position: &Position) -> Move {
    let mut best = (order_evaluation(position), Move::Pass);
    position.for_each_slide(|from, to| {
        let mv = Move::Slide { from, to };
        let mut after = *position;
        after.play_unchecked(mv);
        let value = order_evaluation(&after);
        if value > best.0 {
            best = (value, mv);
        }
    });
    best.1
}

/// Plan 3 for one placement: higher is better for Chaos. Order's best reply x -100, patterns
/// broken in the cell's row and column x 50 (potential before minus after, x 10), opportunity
/// denial x 30 (palindrome windows through the cell that are still open), bag awareness x 20
/// (a rare colour goes where it has fewest chip neighbours) and centre closeness x 10.
pub fn spoiler(position: &Position, cell: Cell, colour: Colour) -> f64 {
    let mut after = *position;
    after.play_unchecked(Move::Place { colour, cell });
    let reply = if after.is_over() {
        after.score()
    } else {
        best_order_reply(&after)
    };
    let before_lines = cell_lines(position.board(), cell);
    let after_lines = cell_lines(after.board(), cell);
    let breaking: f64 = before_lines
        .iter()
        .zip(&after_lines)
        .map(|(b, a)| (pattern_potential(b) - pattern_potential(a)) * 10.0)
        .sum();
    let denial = open_windows(position.board(), cell) as f64;
    let neighbours = chip_neighbours(position.board(), cell) as f64;
    let bag_aware = if position.bag().count(colour) <= 2 {
        4.0 - neighbours
    } else {
        neighbours
    };
    let n = position.size().side() as isize;
    let centre = (n - 1) / 2;
    let distance = (cell.row() as isize - centre).abs() + (cell.column() as isize - centre).abs();
    let positional = (6 - distance) as f64 * 2.0;
    -(reply as f64) * 100.0 + breaking * 50.0 + denial * 30.0 + bag_aware * 20.0 + positional * 10.0
}

/// Plan 4 for one placement: colour fragmentation x 40 (more runs of colour in the row and
/// column), symmetry breaking x 35 (mirror cells of another colour; palindromes that the chip
/// would stop), gap spacing x 15 (odd empty stretches left beside it), zone diversity x 20 (a
/// colour new to its 3x3 zone) and phase-dependent edge or centre preference x 10.
pub fn gap_creation(board: &Board, cell: Cell, colour: Colour) -> f64 {
    let n = board.size().side();
    let mut placed = *board;
    placed.place_unchecked(cell, colour);
    let runs = |line: &[u8]| {
        let filled: Vec<u8> = line.iter().copied().filter(|&c| c != 0).collect();
        filled.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(!filled.is_empty())
    };
    let fragmentation: f64 = cell_lines(board, cell)
        .iter()
        .zip(&cell_lines(&placed, cell))
        .map(|(b, a)| (runs(a) as f64 - runs(b) as f64) * 5.0)
        .sum();
    let mirror = |r: usize, c: usize| board.get(Cell::new(r, c).expect("on grid"));
    let mut symmetry = 0.0;
    for other in [
        mirror(cell.row(), n - 1 - cell.column()),
        mirror(n - 1 - cell.row(), cell.column()),
    ] {
        if other.is_some_and(|o| o != colour) {
            symmetry += 10.0;
        }
    }
    symmetry += open_windows(board, cell) as f64 * 3.0;
    let mut gap_spacing = 0.0;
    for (dr, dc) in [(0isize, -1isize), (0, 1), (-1, 0), (1, 0)] {
        let mut length = 0;
        let (mut r, mut c) = (cell.row() as isize + dr, cell.column() as isize + dc);
        while (0..n as isize).contains(&r) && (0..n as isize).contains(&c) {
            if board
                .get(Cell::new(r as usize, c as usize).expect("on grid"))
                .is_some()
            {
                break;
            }
            length += 1;
            r += dr;
            c += dc;
        }
        if length % 2 == 1 {
            gap_spacing += 5.0;
        }
    }
    let zone = |x: usize| x * 3 / n;
    let zone_has_colour = board.chips().any(|(c, k)| {
        k == colour && zone(c.row()) == zone(cell.row()) && zone(c.column()) == zone(cell.column())
    });
    let zone_control = if zone_has_colour { 2.0 } else { 8.0 };
    let filled = board.chip_count();
    let edge =
        cell.row() == 0 || cell.column() == 0 || cell.row() == n - 1 || cell.column() == n - 1;
    let centre = (n - 1) / 2;
    let central = cell.row().abs_diff(centre) <= 1 && cell.column().abs_diff(centre) <= 1;
    let edge_strategy = match filled * 49 / board.size().cells() {
        0..=15 => {
            if central {
                10.0
            } else {
                5.0
            }
        }
        16..=34 => {
            if central {
                8.0
            } else {
                6.0
            }
        }
        _ => {
            if edge {
                10.0
            } else {
                8.0
            }
        }
    };
    fragmentation * 40.0
        + symmetry * 35.0
        + gap_spacing * 15.0
        + zone_control * 20.0
        + edge_strategy * 10.0
}

/// The row and column through a cell.
fn cell_lines(board: &Board, cell: Cell) -> [Vec<u8>; 2] {
    let n = board.size().side();
    let value = |r: usize, c: usize| {
        board
            .get(Cell::new(r, c).expect("on grid"))
            .map_or(0, Colour::number)
    };
    [
        (0..n).map(|c| value(cell.row(), c)).collect(),
        (0..n).map(|r| value(r, cell.column())).collect(),
    ]
}

/// Windows of length 2 to N along the cell's row and column, containing the cell, whose chips
/// are still consistent with a palindrome (each filled cell's mirror is empty or equal).
fn open_windows(board: &Board, cell: Cell) -> usize {
    let [row, column] = cell_lines(board, cell);
    let mut count = 0;
    for (line, at) in [(row, cell.column()), (column, cell.row())] {
        for length in 2..=line.len() {
            for start in at.saturating_sub(length - 1)..=at.min(line.len() - length) {
                let window = &line[start..start + length];
                let open = (0..length / 2).all(|i| {
                    let (a, b) = (window[i], window[length - 1 - i]);
                    a == 0 || b == 0 || a == b
                });
                count += usize::from(open);
            }
        }
    }
    count
}

/// Chips orthogonally next to a cell.
fn chip_neighbours(board: &Board, cell: Cell) -> usize {
    let n = board.size().side() as isize;
    [(0isize, -1isize), (0, 1), (-1, 0), (1, 0)]
        .iter()
        .filter(|(dr, dc)| {
            let (r, c) = (cell.row() as isize + dr, cell.column() as isize + dc);
            (0..n).contains(&r)
                && (0..n).contains(&c)
                && board
                    .get(Cell::new(r as usize, c as usize).expect("on grid"))
                    .is_some()
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    #[test]
    fn pattern_potential_counts_gaps() {
        assert_eq!(pattern_potential(&[1, 0, 1, 0, 0, 0, 0]), 10.0);
        assert_eq!(pattern_potential(&[1, 0, 0, 1, 0, 0, 0]), 5.0);
        assert_eq!(pattern_potential(&[1, 0, 0, 0, 1, 0, 0]), 2.0);
        assert_eq!(pattern_potential(&[1, 2, 1, 0, 0, 0, 0]), 0.0);
    }

    #[test]
    fn plan_bots_play_legal_moves_in_both_roles() {
        for plan in [ChaosPlan::Spoiler, ChaosPlan::Gap, ChaosPlan::Hybrid] {
            let mut bot = HeuristicBot::new("test", plan, 1);
            let mut pos = Position::new(entropy_core::Size::FIVE);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
            while !pos.is_over() {
                let mv = match pos.phase() {
                    Phase::Draw => crate::playout::random_move(&pos, &mut rng),
                    _ => bot.choose(&pos, Budget::UNLIMITED),
                };
                pos.play(mv).unwrap();
            }
        }
    }

    #[test]
    fn order_plan_takes_a_clear_gain() {
        let pos = parse_position("11.1.../......./......./......./......./......./....... slide")
            .unwrap();
        let mv = order_plan(&pos);
        assert_eq!(pos.after(mv).unwrap().score(), 7, "{mv}");
    }
}
