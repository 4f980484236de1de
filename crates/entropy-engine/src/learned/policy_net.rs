//! The PPO policy network (`python/hyle_entropy/ppo_policy.py`, `EntropyPolicy`) run in plain
//! Rust, without tract: one forward pass over the learning environment's observation
//! ([`super::observation`]) gives a logit per action and the value. Its weights come from
//! `python -m hyle_entropy.ppo_policy POLICY.pt --weights FILE` (the format below; the shipped
//! one is `weights/policy7.bin`, played by the bot `policy`, [`super::PolicyBot`]), and a test
//! checks that it picks PyTorch's action with PyTorch's logit in every position of a golden file
//! (`tests/policy_net.rs`).
//!
//! The file: a text header (`entropy policy network 1`, a `config` line with the network's
//! settings, `#` lines of provenance, one `tensor NAME DIM...` line per parameter in PyTorch's
//! state-dict order, then `data`), then each tensor's values as little-endian f32s in that order.

use std::collections::HashMap;

use entropy_core::{Position, Size};

use super::actions::{env_cell, slide_cells};
use super::observation::{
    changed_lines, observation_size, observation_with_mask_reading, ObservationKind,
};

const SIZE: usize = 7;
const CELLS: usize = SIZE * SIZE;
const COLOURS: usize = SIZE;
const TARGETS: usize = 2 * (SIZE - 1);
const ACTIONS: usize = CELLS + CELLS * TARGETS + 1;
/// The planes observation's width.
const PLANES: usize = COLOURS * CELLS + CELLS + COLOURS + 3;
/// The gains after the planes.
const GAINS: usize = 3 * CELLS + CELLS * TARGETS;
/// The lines after the gains.
const LINES_SIZE: usize = LINES + 3 * (ACTIONS - 1);
/// Rows, then columns.
const LINES: usize = 2 * SIZE;
/// The scalars: the bag, the drawn colour one-hot, the phase and the progress.
const SCALARS: usize = 2 * COLOURS + 2;
/// Partners per cell: the cells 1 .. SIZE-1 away right, left, below and above.
const PARTNERS: usize = 4 * (SIZE - 1);
/// Line patterns of seven cells (the n-tuple evaluation's).
const PATTERNS: usize = 2152;
/// Classes of line by distance from the edge, and quarters of the game, for the line tables.
const CLASSES: usize = SIZE.div_ceil(2);
const STAGES: usize = 4;
/// The line tables' and the evaluation weights' scales (`ppo_policy`'s LINE_SCALE, EVAL_SCALE).
const LINE_SCALE: f32 = 10.0;
const EVAL_SCALE: f32 = 10.0;
/// The logit of an illegal action.
pub const ILLEGAL: f32 = -1e9;
const MAGIC: &str = "entropy policy network 1";

/// `y = W x + b` with W `outputs x inputs`, row-major, as `nn.Linear` keeps it.
#[derive(Clone, Debug)]
struct Linear {
    weight: Vec<f32>,
    bias: Option<Vec<f32>>,
    inputs: usize,
    outputs: usize,
}

impl Linear {
    /// Adds `W x (+ b)` into `out`.
    fn add_to(&self, x: &[f32], out: &mut [f32]) {
        for (o, row) in out.iter_mut().zip(self.weight.chunks_exact(self.inputs)) {
            *o += row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
        }
        if let Some(bias) = &self.bias {
            for (o, b) in out.iter_mut().zip(bias) {
                *o += b;
            }
        }
    }
}

/// A cell layer that sees its row's and column's means (`ppo_policy.LineMix`).
#[derive(Clone, Debug)]
struct LineMix {
    cell: Linear,
    row: Linear,
    column: Linear,
}

impl LineMix {
    /// `(cells x inputs)` features to `(cells x outputs)`, no activation.
    fn apply(&self, x: &[f32]) -> Vec<f32> {
        let (inputs, outputs) = (self.cell.inputs, self.cell.outputs);
        // Each line's mean input, then its term through the row's or the column's weights.
        let line_terms = |layer: &Linear, cell_of: &dyn Fn(usize, usize) -> usize| {
            let mut terms = vec![0.0; SIZE * outputs];
            let mut mean = vec![0.0; inputs];
            for line in 0..SIZE {
                mean.fill(0.0);
                for k in 0..SIZE {
                    let cell = cell_of(line, k);
                    for (m, v) in mean.iter_mut().zip(&x[cell * inputs..(cell + 1) * inputs]) {
                        *m += v / SIZE as f32;
                    }
                }
                layer.add_to(&mean, &mut terms[line * outputs..(line + 1) * outputs]);
            }
            terms
        };
        let rows = line_terms(&self.row, &|row, k| row * SIZE + k);
        let columns = line_terms(&self.column, &|column, k| k * SIZE + column);
        let mut out = vec![0.0; CELLS * outputs];
        for cell in 0..CELLS {
            let (row, column) = (cell / SIZE, cell % SIZE);
            let y = &mut out[cell * outputs..(cell + 1) * outputs];
            self.cell.add_to(&x[cell * inputs..(cell + 1) * inputs], y);
            for (k, v) in y.iter_mut().enumerate() {
                *v += rows[row * outputs + k] + columns[column * outputs + k];
            }
        }
        out
    }
}

/// The line tables (with the lines observation): a value per player to move, quarter of the
/// game, class of line and pattern, for the moves' logits and for the value.
#[derive(Clone, Debug)]
struct LineTables {
    policy: Vec<f32>,
    value: Vec<f32>,
}

/// A loaded policy network.
#[derive(Clone, Debug)]
pub struct PolicyNet {
    kind: ObservationKind,
    stem: Linear,
    scalars: Linear,
    blocks: Vec<LineMix>,
    heads: LineMix,
    passing: Linear,
    value_hidden: Linear,
    value_out: Linear,
    gain_weights: Option<[f32; 3]>,
    eval_weights: Option<[f32; 2]>,
    /// With the read observation: Chaos's weights on each placement's evaluation change after
    /// greedy Order's reply and on its plain change, both while Order reads as greedy.
    read_weights: Option<[f32; 2]>,
    lines: Option<LineTables>,
    provenance: String,
}

/// What the network gives for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyOutput {
    /// A logit per action ([`super::actions`]), [`ILLEGAL`] for the illegal ones.
    pub logits: Vec<f32>,
    /// The critic's value: the score still to come over 50, negated for Chaos.
    pub value: f32,
}

impl PolicyNet {
    /// Reads a network written by `python -m hyle_entropy.ppo_policy POLICY.pt --weights FILE`.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyNet, String> {
        let (header, data) = split_header(bytes)?;
        let mut lines = header.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!(
                "not a policy network: the first line is not {MAGIC:?}"
            ));
        }
        let mut config = HashMap::new();
        let mut provenance = Vec::new();
        let mut shapes = Vec::new();
        for line in lines {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("config") => {
                    let words: Vec<&str> = words.collect();
                    for pair in words.chunks(2) {
                        let [key, value] = pair else {
                            return Err(format!("a config line without a value: {line:?}"));
                        };
                        let value: usize = value
                            .parse()
                            .map_err(|_| format!("config {key} is not a number: {value:?}"))?;
                        config.insert(key.to_string(), value);
                    }
                }
                Some("tensor") => {
                    let name = words.next().ok_or("a tensor line without a name")?;
                    let dims = words
                        .map(|d| d.parse::<usize>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| format!("tensor {name}: a dimension is not a number"))?;
                    shapes.push((name.to_string(), dims));
                }
                Some("#") | None => provenance.push(line.trim_start_matches("# ").to_string()),
                Some(other) => return Err(format!("an unknown header line: {other:?}")),
            }
        }
        let mut tensors = Tensors::read(shapes, data)?;
        let flag = |key: &str| config.get(key).copied().unwrap_or(0) != 0;
        let kind = if flag("read") {
            ObservationKind::Read
        } else if flag("evals") {
            ObservationKind::Evals
        } else if flag("lines") {
            ObservationKind::Lines
        } else if flag("gains") {
            ObservationKind::Gains
        } else {
            ObservationKind::Planes
        };
        let gains = kind != ObservationKind::Planes;
        let channels = *config.get("channels").ok_or("the config has no channels")?;
        let hidden = *config.get("hidden").ok_or("the config has no hidden")?;
        let blocks = *config.get("blocks").ok_or("the config has no blocks")?;
        let features = COLOURS + 1 + 1 + 2 * PARTNERS + if gains { 3 } else { 0 };
        let mut line_mix = |prefix: &str, inputs, outputs| -> Result<LineMix, String> {
            Ok(LineMix {
                cell: tensors.linear(&format!("{prefix}.cell"), inputs, outputs, true)?,
                row: tensors.linear(&format!("{prefix}.row"), inputs, outputs, false)?,
                column: tensors.linear(&format!("{prefix}.column"), inputs, outputs, false)?,
            })
        };
        let block_layers = (0..blocks)
            .map(|i| line_mix(&format!("blocks.{i}"), channels, channels))
            .collect::<Result<Vec<_>, _>>()?;
        let heads = line_mix("heads", channels, 1 + 2 * COLOURS)?;
        let table = 2 * STAGES * CLASSES * PATTERNS;
        // The read observation's flag is one more scalar.
        let scalars = SCALARS + usize::from(kind == ObservationKind::Read);
        let net = PolicyNet {
            kind,
            stem: tensors.linear("stem", features, channels, true)?,
            scalars: tensors.linear("scalars", scalars, channels, true)?,
            blocks: block_layers,
            heads,
            passing: tensors.linear("passing", channels + scalars, 1, true)?,
            value_hidden: tensors.linear("value.0", channels + scalars, hidden, true)?,
            value_out: tensors.linear("value.2", hidden, 1, true)?,
            gain_weights: if gains {
                let w = tensors.take("gain_weights", &[3])?;
                Some([w[0], w[1], w[2]])
            } else {
                None
            },
            eval_weights: if matches!(kind, ObservationKind::Evals | ObservationKind::Read) {
                let w = tensors.take("eval_weights", &[2])?;
                Some([w[0], w[1]])
            } else {
                None
            },
            read_weights: if kind == ObservationKind::Read {
                let w = tensors.take("read_weights", &[2])?;
                Some([w[0], w[1]])
            } else {
                None
            },
            lines: if matches!(
                kind,
                ObservationKind::Lines | ObservationKind::Evals | ObservationKind::Read
            ) {
                Some(LineTables {
                    policy: tensors.take("line_policy", &[table])?,
                    value: tensors.take("line_value", &[table])?,
                })
            } else {
                None
            },
            provenance: provenance.join("\n"),
        };
        tensors.finish()?;
        Ok(net)
    }

    /// The shipped network (`weights/policy7.bin`), read once and shared.
    pub fn shipped() -> std::sync::Arc<PolicyNet> {
        static SHIPPED: std::sync::OnceLock<std::sync::Arc<PolicyNet>> = std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                let bytes = include_bytes!("../../weights/policy7.bin");
                std::sync::Arc::new(
                    PolicyNet::from_bytes(bytes).expect("the shipped policy network reads"),
                )
            })
            .clone()
    }

    /// The observation it reads.
    pub fn kind(&self) -> ObservationKind {
        self.kind
    }

    /// The provenance lines of its file.
    pub fn provenance(&self) -> &str {
        &self.provenance
    }

    /// The observation the network reads for a 7x7 position where a player is to move, the
    /// mask appended as 0/1 (the learning environment's with `mask_in_observation`), for an
    /// opponent not read as greedy.
    pub fn observation(&self, position: &Position) -> Vec<f32> {
        self.observation_reading(position, false)
    }

    /// [`PolicyNet::observation`] where the opponent reads as greedy (`greedy`) or not: only
    /// a network over the read observation sees the difference.
    pub fn observation_reading(&self, position: &Position, greedy: bool) -> Vec<f32> {
        observation_with_mask_reading(position, self.kind, greedy)
    }

    /// Whether the network reads its opponent ([`ObservationKind::Read`]).
    pub fn reads_opponent(&self) -> bool {
        self.kind == ObservationKind::Read
    }

    /// The logits and value of a 7x7 position where a player is to move.
    pub fn evaluate(&self, position: &Position) -> Result<PolicyOutput, String> {
        self.evaluate_reading(position, false)
    }

    /// [`PolicyNet::evaluate`] where the opponent reads as greedy (`greedy`) or not.
    pub fn evaluate_reading(
        &self,
        position: &Position,
        greedy: bool,
    ) -> Result<PolicyOutput, String> {
        if position.size() != Size::SEVEN {
            return Err("the policy network reads 7x7 boards only".to_string());
        }
        if position.to_move().is_none() {
            return Err("the policy network needs a player to move".to_string());
        }
        Ok(self.forward(&self.observation_reading(position, greedy)))
    }

    /// The network on one observation (as [`PolicyNet::observation`] writes it).
    pub fn forward(&self, obs: &[f32]) -> PolicyOutput {
        let width = observation_size(Size::SEVEN, self.kind);
        assert_eq!(obs.len(), width + ACTIONS, "the observation's width");
        let board = Board::read(obs);
        let gains = (self.kind != ObservationKind::Planes).then(|| &obs[PLANES..PLANES + GAINS]);
        // Every cell's inputs, then the trunk.
        let features = board.features(gains);
        let inputs = self.stem.inputs;
        let channels = self.stem.outputs;
        let mut context = vec![0.0; channels];
        // The scalars, and the read observation's flag after them.
        let mut scalars = board.scalars.to_vec();
        if self.read_weights.is_some() {
            scalars.push(obs[PLANES + GAINS + LINES_SIZE + ACTIONS]);
        }
        self.scalars.add_to(&scalars, &mut context);
        let mut x = vec![0.0; CELLS * channels];
        for cell in 0..CELLS {
            let y = &mut x[cell * channels..(cell + 1) * channels];
            y.copy_from_slice(&context);
            self.stem
                .add_to(&features[cell * inputs..(cell + 1) * inputs], y);
            y.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        for block in &self.blocks {
            let mixed = block.apply(&x);
            for (v, m) in x.iter_mut().zip(mixed) {
                *v += m.max(0.0);
            }
        }
        let mut pooled = vec![0.0; channels];
        for cell in x.chunks_exact(channels) {
            for (p, v) in pooled.iter_mut().zip(cell) {
                *p += v;
            }
        }
        pooled.iter_mut().for_each(|p| *p /= CELLS as f32);
        pooled.extend_from_slice(&scalars);
        // The heads: a placement's logit at its cell, a slide's from its destination's arrival
        // and its origin's leaving map for the colour it moves, the pass from the pooled.
        let heads = self.heads.apply(&x);
        let stride = 1 + 2 * COLOURS;
        let mut logits = vec![0.0; ACTIONS];
        for cell in 0..CELLS {
            logits[cell] = heads[cell * stride];
        }
        for (slide, logit) in logits[CELLS..ACTIONS - 1].iter_mut().enumerate() {
            let (from, to) = slide_cells(Size::SEVEN, CELLS + slide).expect("a slide action");
            let (origin, destination) = (env_cell(Size::SEVEN, from), env_cell(Size::SEVEN, to));
            let moving = board.number[origin].max(1.0) as usize - 1;
            *logit = heads[destination * stride + 1 + moving]
                + heads[origin * stride + 1 + COLOURS + moving];
        }
        let mut pass = [0.0];
        self.passing.add_to(&pooled, &mut pass);
        logits[ACTIONS - 1] = pass[0];
        if let (Some(w), Some(gains)) = (self.gain_weights, gains) {
            for cell in 0..CELLS {
                logits[cell] += w[0] * gains[cell] + w[1] * gains[CELLS + cell];
            }
            for (slide, logit) in logits[CELLS..ACTIONS - 1].iter_mut().enumerate() {
                *logit += w[2] * gains[3 * CELLS + slide];
            }
        }
        let mut hidden = vec![0.0; self.value_hidden.outputs];
        self.value_hidden.add_to(&pooled, &mut hidden);
        hidden.iter_mut().for_each(|h| *h = h.max(0.0));
        let mut value = [0.0];
        self.value_out.add_to(&hidden, &mut value);
        let mut value = value[0];
        if let Some(tables) = &self.lines {
            let lines = &obs[PLANES + GAINS..PLANES + GAINS + LINES_SIZE];
            value += tables.add_moves(lines, &board, &mut logits);
        }
        if let Some(w) = self.eval_weights {
            // The evaluation's changes, after the lines.
            let start = PLANES + GAINS + LINES_SIZE;
            let order = board.phase_progress[0];
            let weight = order * w[1] + (1.0 - order) * w[0];
            for (logit, change) in logits.iter_mut().zip(&obs[start..start + ACTIONS]) {
                *logit += EVAL_SCALE * weight * change;
            }
        }
        if let Some(w) = self.read_weights {
            // The flag and the placements' changes after greedy's reply, after the evals.
            let changes = PLANES + GAINS + LINES_SIZE;
            let flag = obs[changes + ACTIONS];
            let replies = &obs[changes + ACTIONS + 1..changes + ACTIONS + 1 + CELLS];
            for cell in 0..CELLS {
                let term = w[0] * replies[cell] + w[1] * obs[changes + cell];
                logits[cell] += EVAL_SCALE * flag * term;
            }
        }
        for (logit, legal) in logits.iter_mut().zip(&obs[width..]) {
            if *legal <= 0.5 {
                *logit = ILLEGAL;
            }
        }
        PolicyOutput { logits, value }
    }
}

impl LineTables {
    /// Adds each move's table difference (its lines after it less now) to `logits` and returns
    /// the value's term.
    fn add_moves(&self, lines: &[f32], board: &Board, logits: &mut [f32]) -> f32 {
        let order = board.phase_progress[0].round() as usize;
        let stage =
            ((board.phase_progress[1] * STAGES as f32).floor().max(0.0) as usize).min(STAGES - 1);
        let table = (order * STAGES + stage) * CLASSES * PATTERNS;
        let class = |line: usize| {
            let i = line % SIZE;
            i.min(SIZE - 1 - i) * PATTERNS
        };
        // The patterns are whole numbers, exact in f32.
        let now = |line: usize| table + class(line) + lines[line] as usize;
        for (action, logit) in logits[..ACTIONS - 1].iter_mut().enumerate() {
            let changed = changed_lines(Size::SEVEN, action).expect("not the pass");
            let mut term = 0.0;
            for (slot, &line) in changed.iter().enumerate() {
                let after = lines[LINES + 3 * action + slot] as usize;
                term += self.policy[table + class(line) + after] - self.policy[now(line)];
            }
            *logit += LINE_SCALE * term;
        }
        LINE_SCALE * (0..LINES).map(|line| self.value[now(line)]).sum::<f32>()
    }
}

/// The board as the network reads it from the planes.
struct Board {
    /// Each cell's colour as a number from 1 (0 empty).
    number: [f32; CELLS],
    empty: [f32; CELLS],
    /// The drawn colour's number (0 when none).
    drawn: f32,
    scalars: [f32; SCALARS],
    /// 1 when Order is to move; the chips placed over the cells.
    phase_progress: [f32; 2],
}

impl Board {
    fn read(obs: &[f32]) -> Board {
        let mut number = [0.0; CELLS];
        for colour in 0..COLOURS {
            for (cell, n) in number.iter_mut().enumerate() {
                *n += obs[colour * CELLS + cell] * (colour + 1) as f32;
            }
        }
        let mut empty = [0.0; CELLS];
        empty.copy_from_slice(&obs[COLOURS * CELLS..COLOURS * CELLS + CELLS]);
        let tail = &obs[COLOURS * CELLS + CELLS..PLANES];
        let drawn = (tail[COLOURS] * SIZE as f32).round();
        let mut scalars = [0.0; SCALARS];
        scalars[..COLOURS].copy_from_slice(&tail[..COLOURS]);
        for colour in 0..COLOURS {
            scalars[COLOURS + colour] = f32::from(u8::from(drawn == (colour + 1) as f32));
        }
        scalars[2 * COLOURS..].copy_from_slice(&tail[COLOURS + 1..]);
        Board {
            number,
            empty,
            drawn,
            scalars,
            phase_progress: [tail[COLOURS + 1], tail[COLOURS + 2]],
        }
    }

    /// Every cell's inputs: its colour one-hot, empty, whether it holds the drawn colour,
    /// whether each partner holds its colour, whether each partner holds the drawn colour
    /// (empty cells only), and with the gains its placement's, reply's and threat's.
    fn features(&self, gains: Option<&[f32]>) -> Vec<f32> {
        let width = COLOURS + 2 + 2 * PARTNERS + if gains.is_some() { 3 } else { 0 };
        let mut out = vec![0.0; CELLS * width];
        let drawn = self.drawn;
        for cell in 0..CELLS {
            let f = &mut out[cell * width..(cell + 1) * width];
            let number = self.number[cell];
            if number > 0.0 {
                f[number as usize - 1] = 1.0;
            }
            f[COLOURS] = self.empty[cell];
            f[COLOURS + 1] = f32::from(u8::from(number == drawn && drawn > 0.0));
            for (k, partner) in partners(cell).into_iter().enumerate() {
                let partner = partner.map_or(-1.0, |p| self.number[p]);
                f[COLOURS + 2 + k] = f32::from(u8::from(partner == number && number > 0.0));
                let pair = partner == drawn && drawn > 0.0;
                f[COLOURS + 2 + PARTNERS + k] = f32::from(u8::from(pair)) * self.empty[cell];
            }
            if let Some(gains) = gains {
                for j in 0..3 {
                    f[COLOURS + 2 + 2 * PARTNERS + j] = gains[j * CELLS + cell];
                }
            }
        }
        out
    }
}

/// The cells 1 .. SIZE-1 away right, left, below and above a cell (`ppo_policy.offset_cells`).
fn partners(cell: usize) -> [Option<usize>; PARTNERS] {
    let (row, column) = ((cell / SIZE) as isize, (cell % SIZE) as isize);
    let mut out = [None; PARTNERS];
    let mut k = 0;
    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        for d in 1..SIZE as isize {
            let (r, c) = (row + dr * d, column + dc * d);
            let on = (0..SIZE as isize).contains(&r) && (0..SIZE as isize).contains(&c);
            out[k] = on.then(|| (r * SIZE as isize + c) as usize);
            k += 1;
        }
    }
    out
}

/// The header's text and the data after its `data` line.
fn split_header(bytes: &[u8]) -> Result<(&str, &[u8]), String> {
    let marker = b"\ndata\n";
    let at = bytes
        .windows(marker.len())
        .position(|w| w == marker)
        .ok_or("not a policy network: no `data` line")?;
    let header =
        std::str::from_utf8(&bytes[..at]).map_err(|_| "the header is not text".to_string())?;
    Ok((header, &bytes[at + marker.len()..]))
}

/// The file's tensors by name, each taken once.
struct Tensors {
    by_name: HashMap<String, (Vec<usize>, Vec<f32>)>,
}

impl Tensors {
    fn read(shapes: Vec<(String, Vec<usize>)>, data: &[u8]) -> Result<Tensors, String> {
        let total: usize = shapes
            .iter()
            .map(|(_, d)| d.iter().product::<usize>())
            .sum();
        if data.len() != 4 * total {
            return Err(format!(
                "the header names {total} numbers, the data hold {} bytes",
                data.len()
            ));
        }
        let mut values = data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let by_name = shapes
            .into_iter()
            .map(|(name, dims)| {
                let count = dims.iter().product();
                let tensor: Vec<f32> = values.by_ref().take(count).collect();
                (name, (dims, tensor))
            })
            .collect();
        Ok(Tensors { by_name })
    }

    fn take(&mut self, name: &str, dims: &[usize]) -> Result<Vec<f32>, String> {
        let (found, values) = self
            .by_name
            .remove(name)
            .ok_or_else(|| format!("the file has no tensor {name}"))?;
        if found != dims {
            return Err(format!(
                "tensor {name} is {found:?}, the network needs {dims:?}"
            ));
        }
        Ok(values)
    }

    fn linear(
        &mut self,
        prefix: &str,
        inputs: usize,
        outputs: usize,
        bias: bool,
    ) -> Result<Linear, String> {
        Ok(Linear {
            weight: self.take(&format!("{prefix}.weight"), &[outputs, inputs])?,
            bias: if bias {
                Some(self.take(&format!("{prefix}.bias"), &[outputs])?)
            } else {
                None
            },
            inputs,
            outputs,
        })
    }

    /// An error naming a tensor no layer took (a file for another network).
    fn finish(self) -> Result<(), String> {
        match self.by_name.keys().next() {
            Some(name) => Err(format!("the network has no place for tensor {name}")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_errors_naming_what_is_wrong() {
        for (bytes, says) in [
            (&b"garbage"[..], "no `data` line"),
            (b"something else\ndata\n", "not a policy network"),
            (
                b"entropy policy network 1\nconfig channels 2 blocks 0 hidden 2\ntensor stem.weight 2 2\ndata\n",
                "the header names 4 numbers",
            ),
            (
                b"entropy policy network 1\nconfig channels 2 blocks 0 hidden 2\ndata\n",
                "the file has no tensor",
            ),
        ] {
            let error = PolicyNet::from_bytes(bytes).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }
}
