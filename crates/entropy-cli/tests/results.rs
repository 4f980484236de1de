//! The results store as the project keeps it: records written plain and sealed compressed, the
//! page regenerated exactly from the records, a page edited by hand refused, and the README
//! quoting only figures the page shows.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_fails, entropy, scratch, text};

/// The repository's root, where `results/` and `docs/` are.
fn repository() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_results_page_is_what_the_records_make() {
    let out = Command::new(env!("CARGO_BIN_EXE_entropy"))
        .args(["results", "--check"])
        .current_dir(repository())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "docs/results.md is stale or the index misses a record: run `entropy results`\n{}",
        text(&out.stderr)
    );
}

#[test]
fn results_check_fails_on_a_page_edited_by_hand() {
    let dir = scratch("results");
    let page = dir.join("results.md");
    let store = repository().join("results");
    let run = |check: bool| {
        let mut args = vec![
            "results",
            "--store",
            store.to_str().unwrap(),
            "--out",
            page.to_str().unwrap(),
        ];
        if check {
            args.push("--check");
        }
        entropy(&args, "")
    };
    assert!(run(false).status.success());
    assert!(run(true).status.success());
    let edited = std::fs::read_to_string(&page)
        .unwrap()
        .replacen("+8.8 ± 1.3", "+9.9 ± 1.3", 1);
    std::fs::write(&page, edited).unwrap();
    assert_fails(&run(true), 2, "is not what the records make");
}

/// The figures `±` joins in a text: `+8.8 ± 1.3`, `-0.5 ± 2.0`, `59.1 ± 4.2`.
fn figures(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | ';' | '|' | '*'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(3)
        .filter(|w| w[1] == "±")
        .map(|w| format!("{} ± {}", w[0], w[2]))
        .collect()
}

#[test]
fn every_figure_in_the_readme_is_on_the_results_page() {
    let root = repository();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/results.md")).unwrap();
    let quoted = figures(&readme);
    assert!(quoted.len() >= 5, "{quoted:?}");
    for figure in quoted {
        assert!(
            page.contains(&figure),
            "README.md quotes {figure}, which docs/results.md does not show"
        );
    }
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    assert!(
        readme.lines().count() < 150,
        "README.md has grown past 150 lines"
    );
    let mut code = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            code = !code;
        } else if !code {
            assert!(
                line.chars().count() <= 200,
                "a README line over 200 characters: {line}"
            );
        }
    }
    // The two commands come first.
    let first = readme
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .nth(1)
        .unwrap();
    assert!(first.starts_with("cargo run --release -- serve"), "{first}");
}

#[test]
fn a_compressed_record_is_written_plain_then_sealed_and_extended_by_a_new_sitting() {
    let dir = scratch("sealed");
    let sealed = dir.join("m.jsonl.gz");
    let plain = dir.join("m.jsonl");
    let play = |deals: &str| {
        let out = entropy(
            &[
                "match",
                "greedy",
                "random",
                "--clock",
                "5",
                "--deals",
                deals,
                "--out",
                sealed.to_str().unwrap(),
                "--quiet",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let first = play("2");
    // Finished: the games are in the compressed part alone.
    assert!(sealed.exists() && !plain.exists());
    let mut head = [0u8; 2];
    std::io::Read::read_exact(&mut std::fs::File::open(&sealed).unwrap(), &mut head).unwrap();
    assert_eq!(head, [0x1f, 0x8b], "gzip");
    // Extended: the new games go plain while they are played, then join the compressed part.
    let second = play("3");
    assert!(second.contains("(6 games)"), "{second}");
    assert!(!plain.exists());
    // Either name reads the whole record, as the match printed it.
    for name in [&sealed, &plain] {
        let out = entropy(&["records", name.to_str().unwrap()], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout).replace("m.jsonl.gz", "m.jsonl"),
            second.replace("m.jsonl.gz", "m.jsonl")
        );
    }
    assert!(first.contains("(4 games)"), "{first}");
    // A plain part left by an interrupted sitting is read after the compressed one.
    std::fs::write(&plain, "{\"truncated\": \n").unwrap();
    let out = entropy(&["records", sealed.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("m.jsonl line 1"),
        "{}",
        text(&out.stderr)
    );
    // --fresh removes both parts.
    let out = entropy(
        &[
            "match",
            "greedy",
            "random",
            "--deals",
            "1",
            "--clock",
            "5",
            "--fresh",
            "--quiet",
            "--out",
            sealed.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("(2 games)"));
}
