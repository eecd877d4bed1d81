//! SVG line charts: a grid of panels, each with a log-scale x axis and one line per
//! series. Network sweeps draw with it: per Kautz graph, delivered fraction, first-attempt
//! success, retries per message and mean latency against the injection rate, one line per
//! number of faulty nodes ([`sweep_svg`]); the torus Fig. 4 run draws extra hops and
//! latency against the network size. Drawn with `plotters`; text is SVG text, so the file
//! needs no fonts and is the same bytes on every machine.

use crate::network::sweep::Row;
use plotters::prelude::*;

/// A figure drawn: its name, whether it is a fraction (drawn from 0 to 1), its value.
type Figure = (&'static str, bool, fn(&Row) -> Option<f64>);

const FIGURES: [Figure; 4] = [
    ("delivered fraction", true, |r| Some(r.delivered_fraction())),
    ("first-attempt success", true, |r| {
        r.summary.first_attempt_success
    }),
    ("retries per message", false, |r| {
        Some(r.retries_per_message())
    }),
    ("mean latency (cycles)", false, |r| r.summary.mean_latency),
];

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// One line of a panel: its legend label and its points, in x order.
pub type Line = (String, Vec<(f64, f64)>);

/// One chart of a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub x_desc: &'static str,
    /// The x axis (log scale), lowest and highest value; both above 0.
    pub x_range: (f64, f64),
    /// The top of the y axis, which starts at 0.
    pub y_top: f64,
    pub lines: Vec<Line>,
}

/// `panels` as an SVG document under `title`, `columns` panels a row.
pub fn panels_svg(title: &str, columns: usize, panels: &[Panel]) -> Result<String, String> {
    let rows = panels.len().div_ceil(columns.max(1));
    let mut svg = String::new();
    {
        let size = (1400, 60 + 300 * rows as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 22))
            .map_err(|e| e.to_string())?;
        let areas = root.split_evenly((rows, columns));
        for (area, panel) in areas.iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The chart of Kautz sweep `rows` as an SVG document.
pub fn sweep_svg(rows: &[Row]) -> Result<String, String> {
    let mut graphs: Vec<(usize, usize)> = rows
        .iter()
        .map(|r| (r.point.graph.d(), r.point.graph.k()))
        .collect();
    graphs.sort_unstable();
    graphs.dedup();
    let mut panels = Vec::new();
    for &(d, k) in &graphs {
        let of_graph: Vec<&Row> = rows
            .iter()
            .filter(|r| (r.point.graph.d(), r.point.graph.k()) == (d, k))
            .collect();
        for figure in &FIGURES {
            panels.push(sweep_panel((d, k), figure, &of_graph));
        }
    }
    panels_svg(
        "Kautz network of the network-switch paper (Smit et al. 1991): uniform traffic against the injection rate",
        FIGURES.len(),
        &panels,
    )
}

/// One figure of one graph: a line per number of faulty nodes against the rate.
fn sweep_panel((d, k): (usize, usize), &(name, fraction, value): &Figure, rows: &[&Row]) -> Panel {
    let rates: Vec<f64> = rows
        .iter()
        .map(|r| r.point.rate)
        .filter(|&r| r > 0.0)
        .collect();
    let (lo, hi) = rates
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let y_top = if fraction {
        1.02
    } else {
        rows.iter()
            .filter_map(|r| value(r))
            .fold(0.0f64, f64::max)
            .max(1e-9)
            * 1.05
    };
    let mut faults: Vec<u64> = rows.iter().map(|r| r.point.faults).collect();
    faults.sort_unstable();
    faults.dedup();
    let lines = faults
        .iter()
        .map(|&f| {
            let mut line: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.point.faults == f && r.point.rate > 0.0)
                .filter_map(|r| Some((r.point.rate, value(r)?)))
                .collect();
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
            (format!("{f} faulty"), line)
        })
        .collect();
    Panel {
        title: format!("K({d},{k}): {name}"),
        x_desc: "messages per node per cycle",
        x_range: (lo.min(hi), hi.max(lo * 1.0001)),
        y_top,
        lines,
    }
}

fn draw_panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    panel: &Panel,
) -> Result<(), String> {
    let (lo, hi) = panel.x_range;
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title.as_str(), ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d((lo..hi).log_scale(), 0.0..panel.y_top)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(panel.x_desc)
        .x_label_formatter(&|x| format!("{x}"))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (label, line)) in panel.lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(())
}
