/// The report page: one self-contained HTML file (inline CSS, the chart inline as SVG, the data inline
/// as JSON), so it opens anywhere with no network. Mustache escapes every `{{value}}`; only the chart and
/// the data block, which Cove writes escaped itself, go in raw (`{{{…}}}`).
enum ReportTemplate {
    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="Cove">
        <title>QoE report: {{title}}</title>
        <style>
        body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px; color: #222; background: #fff; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 22px 0 8px; }
        .source { color: #555; font-size: 12px; word-break: break-all; }
        .outcome { display: inline-block; padding: 2px 8px; border-radius: 3px; font-size: 12px; font-weight: bold; color: #fff; }
        .outcome.ok { background: #2d7d46; }
        .outcome.failed { background: #b00020; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 8px; max-width: 980px; }
        .figure { border: 1px solid #ddd; border-radius: 4px; padding: 8px 10px; }
        .figure .name { font-size: 11px; color: #666; }
        .figure .value { font-size: 18px; font-weight: bold; margin-top: 2px; }
        .figure .detail { font-size: 11px; color: #666; margin-top: 2px; }
        table { border-collapse: collapse; font-size: 12px; }
        th, td { border-bottom: 1px solid #e4e4e4; padding: 4px 10px; text-align: left; }
        th { color: #555; font-weight: normal; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        .chart { margin-top: 6px; }
        footer { margin-top: 24px; font-size: 11px; color: #777; }
        </style>
        </head>
        <body>
        <h1>QoE report: {{title}}</h1>
        <div class="source">{{source}}</div>
        <p><span class="outcome {{outcomeClass}}" id="outcome">{{outcome}}</span> <span class="source">{{generated}}</span></p>

        <h2>Summary</h2>
        <div class="figures" id="figures">
        {{#figures}}
        <div class="figure" data-figure="{{key}}"><div class="name">{{name}}</div><div class="value">{{value}}</div>{{#detail}}<div class="detail">{{detail}}</div>{{/detail}}</div>
        {{/figures}}
        </div>

        <h2>Timeline</h2>
        <div class="chart" id="timeline">{{{chart}}}</div>

        {{#hasVariants}}
        <h2>Time at each variant</h2>
        <table id="variants">
        <tr><th>Variant</th><th>Height</th><th>Media played</th><th>Share</th></tr>
        {{#variants}}
        <tr><td class="number">{{bitrate}}</td><td class="number">{{height}}</td><td class="number">{{played}}</td><td class="number">{{share}}</td></tr>
        {{/variants}}
        </table>
        {{/hasVariants}}

        {{#hasMoments}}
        <h2>Events</h2>
        <table id="moments">
        <tr><th>At</th><th>Event</th><th>Detail</th></tr>
        {{#moments}}
        <tr class="{{kind}}"><td class="number">{{at}}</td><td>{{name}}</td><td>{{detail}}</td></tr>
        {{/moments}}
        </table>
        {{/hasMoments}}

        <footer>Made by Cove. The data behind the timeline is in this file (script#qoe-data, JSON).</footer>
        <script type="application/json" id="qoe-data">{{{data}}}</script>
        </body>
        </html>

        """
}
