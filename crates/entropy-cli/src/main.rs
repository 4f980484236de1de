//! `entropy`: the command-line front end. Each subcommand lives in its own file under `cmd/`;
//! this file parses arguments and maps errors to exit codes.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Entropy (Hyle 7): score boards, play the CodeCup protocol, run matches between bots and
/// programs, play against a bot in the terminal, review games, and measure the engine.
#[derive(Parser)]
#[command(name = "entropy", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Score(cmd::score::Args),
    Codecup(cmd::codecup::Args),
    Match(cmd::matches::Args),
    Records(cmd::records::Args),
    Results(cmd::results::Args),
    CourseServer(cmd::course::ServerArgs),
    CourseClient(cmd::course::ClientArgs),
    Ladder(cmd::ladder::Args),
    Play(cmd::play::Args),
    Serve(cmd::serve::Args),
    Perft(cmd::perft::Args),
    Bench(cmd::bench::Args),
    Train(cmd::train::Args),
    TrainNet(cmd::train_net::Args),
    TrainTables(cmd::train_tables::Args),
    PolicyData(cmd::policy_data::Args),
    TeacherData(cmd::teacher_data::Args),
    Bots(cmd::bots::Args),
    Analyse(cmd::analyse::Args),
    Calibrate(cmd::calibrate::Args),
    Tune(cmd::tune::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Score(args) => cmd::score::run(args),
        Command::Codecup(args) => cmd::codecup::run(args),
        Command::Match(args) => cmd::matches::run(args),
        Command::Records(args) => cmd::records::run(args),
        Command::Results(args) => cmd::results::run(args),
        Command::CourseServer(args) => cmd::course::run_server(args),
        Command::CourseClient(args) => cmd::course::run_client(args),
        Command::Ladder(args) => cmd::ladder::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Train(args) => cmd::train::run(args),
        Command::TrainNet(args) => cmd::train_net::run(args),
        Command::TrainTables(args) => cmd::train_tables::run(args),
        Command::PolicyData(args) => cmd::policy_data::run(args),
        Command::TeacherData(args) => cmd::teacher_data::run(args),
        Command::Bots(args) => cmd::bots::run(args),
        Command::Analyse(args) => cmd::analyse::run(args),
        Command::Calibrate(args) => cmd::calibrate::run(args),
        Command::Tune(args) => cmd::tune::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("entropy: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
