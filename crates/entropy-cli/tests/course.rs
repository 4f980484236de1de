//! `entropy course-server` and `course-client` driven as users drive them: both sizes, broken
//! clients.

mod common;

use std::process::{Command, Stdio};

use common::{records, scratch, text};

/// Starts `entropy course-server` on a free port; returns the child and the port.
fn course_server(extra: &[&str]) -> (std::process::Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_entropy"))
        .args(["course-server", "--port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    use std::io::BufRead;
    stderr.read_line(&mut line).unwrap();
    let port: u16 = line
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    (child, port)
}

#[test]
fn course_clients_play_our_server_for_both_sizes() {
    for size in ["5", "7"] {
        let dir = scratch(&format!("course{size}"));
        let log = dir.join("games.jsonl");
        let (server, port) = course_server(&[
            "--size",
            size,
            "--time",
            "60",
            "--log",
            log.to_str().unwrap(),
        ]);
        let port = port.to_string();
        let spawn_client = |bot: &str| {
            Command::new(env!("CARGO_BIN_EXE_entropy"))
                .args([
                    "course-client",
                    "--port",
                    &port,
                    "--bot",
                    bot,
                    "--move-time",
                    "0.02",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let a = spawn_client("search:nodes=500");
        std::thread::sleep(std::time::Duration::from_millis(100));
        let b = spawn_client("greedy");
        for client in [a, b] {
            let out = client.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        let out = server.wait_with_output().unwrap();
        assert!(out.status.success());
        assert!(
            text(&out.stdout).contains("scored"),
            "{}",
            text(&out.stdout)
        );
        let games = records(&log);
        assert_eq!(games.len(), 2);
        for game in games {
            assert_eq!(game["termination"], "normal", "{game}");
            assert!(!game["board"].as_str().unwrap().contains('.'));
        }
    }
}

#[test]
fn the_course_server_survives_broken_clients() {
    use std::io::{BufRead, BufReader, Write as _};
    let dir = scratch("course-broken");
    let log = dir.join("games.jsonl");
    let (server, port) =
        course_server(&["--size", "5", "--time", "2", "--log", log.to_str().unwrap()]);
    // A client that sends garbage to every line, and one that disconnects after its greeting.
    let garbage = std::thread::spawn(move || {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut writer = stream.try_clone().unwrap();
        for line in BufReader::new(stream).lines() {
            if line.is_err() {
                break;
            }
            let _ = writeln!(writer, "hello server");
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(100));
    {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
    }
    let out = server.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    garbage.join().unwrap();
    let games = records(&log);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game["termination"], "forfeit");
        assert!(
            !game["board"].as_str().unwrap().contains('.'),
            "the jury finished the game"
        );
    }
    let reasons: Vec<String> = games
        .iter()
        .flat_map(|g| {
            g["forfeits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["reason"].to_string())
        })
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("hello server") || r.contains("invalid")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("disconnected") || r.contains("write failed")),
        "{reasons:?}"
    );
}
