//! Generates the line score table: one byte per 21-bit line key (seven cells, three bits each,
//! 0 = empty, 1..=7 = colour), holding the sum of the lengths of all palindromic runs of length
//! two or more in that line. The counter is the centre expansion of `src/score/naive.rs`; the
//! crate's tests compare every entry against the brute-force oracle in the same file.

use std::io::Write;

#[allow(dead_code, missing_docs)]
#[path = "src/score/naive.rs"]
mod naive;

fn main() {
    println!("cargo:rerun-if-changed=src/score/naive.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let mut table = vec![0u8; naive::LINE_KEYS];
    for (key, entry) in table.iter_mut().enumerate() {
        let cells = naive::decode_line(key as u32);
        *entry = naive::centre_expansion_score(&cells) as u8;
    }
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let mut file =
        std::fs::File::create(out.join("line_scores.bin")).expect("create line_scores.bin");
    file.write_all(&table).expect("write line_scores.bin");
}
