//! Pictures of a game: ANSI text for terminals and an RGB array for videos.

use entropy_core::{Cell, Colour, Position};

/// The colours of the chips as RGB.
pub const PALETTE: [[u8; 3]; 7] = [
    [220, 50, 47],   // red
    [60, 170, 60],   // green
    [240, 200, 40],  // yellow
    [38, 110, 210],  // blue
    [240, 240, 240], // white
    [30, 30, 30],    // black
    [150, 70, 190],  // purple
];

/// The board in ANSI colours with the bot spec's letters, coordinates and the score.
pub fn ansi(position: &Position) -> String {
    let n = position.size().side();
    let mut out = String::from("   ");
    for c in 0..n {
        out.push_str(&format!(" {} ", (b'a' + c as u8) as char));
    }
    out.push('\n');
    for r in 0..n {
        out.push_str(&format!(" {} ", (b'A' + r as u8) as char));
        for c in 0..n {
            match position.board().get(Cell::new(r, c).expect("on grid")) {
                Some(colour) => {
                    let [red, green, blue] = PALETTE[colour.index()];
                    let fg = if matches!(colour, Colour::White | Colour::Yellow | Colour::Green) {
                        30
                    } else {
                        97
                    };
                    out.push_str(&format!(
                        "\x1b[48;2;{red};{green};{blue};{fg}m {} \x1b[0m",
                        colour.letter()
                    ));
                }
                None => out.push_str(" . "),
            }
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "score {} | {}\n",
        position.score(),
        position.phase()
    ));
    out
}

/// Pixels per cell in [`rgb`].
pub const CELL_PIXELS: usize = 16;

/// The board as an RGB image, `N * 16` pixels square, row-major, 3 bytes per pixel: chips as
/// coloured squares on a grey board with dark grid lines.
pub fn rgb(position: &Position) -> (usize, Vec<u8>) {
    let n = position.size().side();
    let side = n * CELL_PIXELS;
    let mut image = vec![0u8; side * side * 3];
    for y in 0..side {
        for x in 0..side {
            let cell = Cell::new(y / CELL_PIXELS, x / CELL_PIXELS).expect("on grid");
            let edge = x % CELL_PIXELS == 0 || y % CELL_PIXELS == 0;
            let inner = (2..CELL_PIXELS - 1).contains(&(x % CELL_PIXELS))
                && (2..CELL_PIXELS - 1).contains(&(y % CELL_PIXELS));
            let pixel = match position.board().get(cell) {
                _ if edge => [60, 60, 60],
                Some(colour) if inner => PALETTE[colour.index()],
                _ => [170, 160, 140],
            };
            image[(y * side + x) * 3..(y * side + x) * 3 + 3].copy_from_slice(&pixel);
        }
    }
    (side, image)
}
