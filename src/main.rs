//! `pbrain-tianyuan`: the Gomocup brain (no arguments) and the tools for people (subcommands).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pbrain-tianyuan",
    version,
    about = "Tianyuan Gomoku / Renju engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Measure the rules core: make+unmake pairs per second for every rule on 15x15 and 20x20.
    Bench {
        /// Milliseconds per (rule, size) set.
        #[arg(long, default_value_t = 1000)]
        millis: u64,
    },
    /// Play a tournament between Gomocup brains (round robin or gauntlet, SPRT).
    Match(tianyuan::tools::match_options::MatchArgs),
    /// Play this binary against itself or against an older build (--baseline).
    Selfplay(tianyuan::tools::match_options::SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { millis }) => match run_bench(millis) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                println!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Match(args)) => {
            report(tianyuan::tools::match_runner::run_match_command(&args))
        }
        Some(Command::Selfplay(args)) => {
            report(tianyuan::tools::match_runner::run_selfplay_command(&args))
        }
        None => ExitCode::SUCCESS,
    }
}

/// Exit code of a tool subcommand; errors are printed.
fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_bench(millis: u64) -> anyhow::Result<()> {
    println!(
        "{:<10} {:>5} {:>16} {:>18}",
        "rule", "size", "make+unmake/s", "checksum"
    );
    for r in tianyuan::bench::move_bench(millis)? {
        println!(
            "{:<10} {:>5} {:>16.0} {:>18x}",
            r.rule.to_string(),
            r.size,
            r.pairs_per_sec,
            r.checksum
        );
    }
    Ok(())
}
