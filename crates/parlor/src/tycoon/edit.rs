//! `parlor tycoon edit`: the designer, scriptable.

use anyhow::{Result, bail};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use tycoon::design::{Designer, EDIT_FORMS, Edit};

/// Arguments of `parlor tycoon edit`.
#[derive(Args, Debug)]
#[command(after_help = "Edits (each one --do):
  ladder START END        snake START END        delete CELL
  card NUMBER CELL [PARAMS]   e.g. card 1 4 50, card 6 28 97, card 9 13 50 10, card 4 51
  card 9 CELL             another station 9 at the grid's price and fee
  station NUMBER PRICE FEE    change the price and fee of every card 9, 10 or 11
  copy CELL   cut CELL   paste CELL   (the object living on CELL; a pasted ladder
                                       or snake keeps its length)
  clear   undo   redo

OUT is written (atomically) only if every edit is accepted; with no edits the
grid file is saved byte for byte as it was read, and after edits every
unchanged line keeps its text. GRID `new` starts from an empty grid, `sample` from
the original assignment's sample. OUT ending in .json gets the JSON form.

Examples:
  parlor tycoon edit new -o my.grid --do \"ladder 10 32\" --do \"snake 34 23\" --do \"card 9 13 50 10\"
  parlor tycoon edit my.grid -o my.grid --do \"copy 10\" --do \"paste 14\"
  parlor tycoon edit sample -o sample.json")]
pub struct EditArgs {
    /// The grid to start from: a file, `sample`, or `new` (empty).
    #[arg(value_name = "GRID")]
    grid: String,
    /// Where to write the result.
    #[arg(long, short = 'o', value_name = "OUT")]
    out: PathBuf,
    /// An edit; repeat for several, applied in order.
    #[arg(long = "do", value_name = "EDIT")]
    edits: Vec<String>,
}

/// Runs the edits and writes the result.
pub fn run(args: &EditArgs) -> Result<()> {
    let mut designer =
        if args.grid.eq_ignore_ascii_case("new") && !std::path::Path::new(&args.grid).exists() {
            Designer::new(tycoon::Grid::empty())
        } else {
            let (grid, text) = super::load_grid_text(&args.grid)?;
            Designer::new(grid).with_source(text)
        };
    // The log is printed only once the grid is written, so a refused edit
    // leaves nothing on stdout that looks like work done.
    let mut log = Vec::with_capacity(args.edits.len());
    let out_name = args.out.display();
    for (i, text) in args.edits.iter().enumerate() {
        let n = i + 1;
        let edit: Edit = match text.parse() {
            Ok(e) => e,
            // The forms are shown once: an empty edit's message has them.
            Err(e) if e.to_string().contains(EDIT_FORMS) => {
                bail!("edit {n}: {e}; {out_name} was not written")
            }
            Err(e) => bail!("edit {n}: {e}\n(edits: {EDIT_FORMS}); {out_name} was not written"),
        };
        match designer.apply(&edit) {
            Ok(applied) => log.push(format!("{n}. {edit}: {}", applied.summary)),
            Err(e) => bail!("edit {n} `{edit}` refused: {e}; {out_name} was not written"),
        }
    }
    super::save_design(&designer, &args.out)?;
    let mut out = std::io::stdout().lock();
    for line in &log {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "wrote {out_name}: {}", designer.grid())?;
    Ok(())
}
