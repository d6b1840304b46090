// The status page itself: one HTML document with its style and script inline, fetching nothing
// but its own event stream (`dashboard/events`, relative, so it also works behind a proxy that
// mounts the node under a prefix). The Content-Security-Policy sent with it names the script and
// the style by hash, so nothing else can run or load even if a peer's user agent carried markup;
// the script only ever sets text (textContent), never HTML.
import { createHash } from 'node:crypto';

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--fg:#1c2330;--mute:#667085;--line:#e3e6ea;--ok:#1a7f37;--warn:#b54708;--accent:#3559e0}
@media (prefers-color-scheme:dark){:root{--bg:#0f1217;--card:#181c23;--fg:#e6e8eb;--mute:#98a2b3;--line:#2a303a;--accent:#7c9cff}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:baseline;justify-content:space-between;padding:.8rem 1rem;border-bottom:1px solid var(--line);background:var(--card)}
h1{font-size:1.1rem;margin:0}
h2{font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--mute);margin:0 0 .4rem}
main{padding:1rem;max-width:1200px;margin:0 auto}
.grid{display:grid;gap:.8rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,220px),1fr))}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem;min-width:0}
.big{font-size:1.8rem;font-weight:650;font-variant-numeric:tabular-nums}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere}
.mute{color:var(--mute)}
.live{color:var(--ok)}.down{color:var(--warn)}
dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .8rem;margin:.3rem 0 0}
dt{color:var(--mute)}dd{margin:0;font-variant-numeric:tabular-nums;text-align:right}
progress{width:100%;height:.6rem;margin-top:.4rem;accent-color:var(--accent)}
section.wide{margin-top:.8rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:.35rem .5rem;border-top:1px solid var(--line);white-space:nowrap}
th{font-size:.75rem;color:var(--mute);font-weight:600;border-top:0}
td.num,th.num{text-align:right}
@media (max-width:560px){main{padding:.6rem}.big{font-size:1.5rem}.opt{display:none}}
`;

const SCRIPT = `
"use strict";
var $=function(id){return document.getElementById(id)};
var last=null;
function text(id,v){$(id).textContent=v}
function short(h){return h.length>16?h.slice(0,8)+"\\u2026"+h.slice(-8):h}
function age(ts){var s=Math.round((Date.now()-Date.parse(ts))/1000);if(!(s>=0))return"";if(s<90)return s+" s ago";if(s<5400)return Math.round(s/60)+" min ago";if(s<172800)return Math.round(s/3600)+" h ago";return Math.round(s/86400)+" d ago"}
function cell(tr,v,cls,title){var td=document.createElement("td");td.textContent=v;if(cls)td.className=cls;if(title)td.title=title;tr.appendChild(td);return td}
function rows(id,list,fill){var body=$(id);var out=[];list.forEach(function(x){var tr=document.createElement("tr");fill(tr,x);out.push(tr)});body.replaceChildren.apply(body,out)}
function difficulty(id,d){var dl=$(id);var out=[];Object.keys(d).forEach(function(a){var dt=document.createElement("dt");dt.textContent=a;var dd=document.createElement("dd");dd.textContent=d[a];dd.dataset.algo=a;out.push(dt,dd)});dl.replaceChildren.apply(dl,out)}
function progress(s){var i=s.info;if(!i)return null;var pairs=[["current_height","highest_height"],["downloaded_size","total_size"],["rproofs","rproofs_total"],["kernels","kernels_total"]];for(var k=0;k<pairs.length;k++){var p=pairs[k];if(i[p[0]]!==undefined)return{done:Number(i[p[0]]),of:Number(i[p[1]]),label:i[p[0]]+" / "+i[p[1]]}}return null}
function render(s){
last=s;
text("agent",s.node.user_agent+" \\u00b7 protocol "+s.node.protocol_version);
if(s.tip){text("tip-height",s.tip.height);text("tip-hash",s.tip.hash);$("tip-hash").title=s.tip.hash;difficulty("tip-difficulty",s.tip.total_difficulty)}
text("sync-status",s.sync.status);
var p=progress(s.sync);var bar=$("sync-progress");
if(p&&p.of>0){bar.hidden=false;bar.max=p.of;bar.value=Math.min(p.done,p.of);text("sync-detail",p.label+" ("+Math.floor(100*Math.min(p.done,p.of)/p.of)+" %)")}else{bar.hidden=true;text("sync-detail",s.sync.status==="no_sync"?"in sync":"")}
if(s.pool){text("pool-size",String(s.pool.pool));text("stempool-size",String(s.pool.stempool))}
text("req-rate",s.requests.per_second.toFixed(2));text("req-total",String(s.requests.total));
var inb=0;s.peers.forEach(function(x){if(x.direction==="Inbound")inb++});
text("peer-count",String(s.connections));text("peer-in",String(inb));text("peer-out",String(s.peers.length-inb));
rows("blocks",s.blocks,function(tr,b){tr.dataset.height=b.height;cell(tr,b.height,"num");cell(tr,b.algorithm);var t=cell(tr,age(b.timestamp),"age",b.timestamp);t.dataset.ts=b.timestamp;cell(tr,b.timestamp.replace("+00:00","Z"),"opt mono");cell(tr,short(b.hash),"mono",b.hash)});
rows("peers",s.peers,function(tr,x){cell(tr,x.addr,"mono");cell(tr,x.direction);cell(tr,x.height,"num");cell(tr,x.capabilities||"none");cell(tr,x.user_agent,"opt")});
$("no-peers").hidden=s.peers.length>0;
text("updated",new Date(s.at).toLocaleTimeString());$("updated").dataset.at=String(s.at);
}
function tick(){document.querySelectorAll("td.age").forEach(function(td){td.textContent=age(td.dataset.ts)})}
function connect(){
var es=new EventSource("dashboard/events");
es.onopen=function(){text("conn","live");$("conn").className="live"};
es.onerror=function(){text("conn","reconnecting\\u2026");$("conn").className="down"};
es.onmessage=function(e){try{render(JSON.parse(e.data))}catch(err){}};
}
setInterval(tick,1000);
connect();
`;

const BODY = `<header><h1>mwnode <span class="mute" id="agent"></span></h1><div><span id="conn" class="down">connecting\u2026</span> <span class="mute">updated <span id="updated">never</span></span></div></header>
<main>
<div class="grid">
<section class="card"><h2>Tip</h2><div class="big" id="tip-height">\u2013</div><div class="mono mute" id="tip-hash"></div><dl id="tip-difficulty"></dl></section>
<section class="card"><h2>Sync</h2><div class="big" id="sync-status">\u2013</div><progress id="sync-progress" hidden></progress><div class="mute" id="sync-detail"></div></section>
<section class="card"><h2>Peers</h2><div class="big" id="peer-count">\u2013</div><dl><dt>inbound</dt><dd id="peer-in">\u2013</dd><dt>outbound</dt><dd id="peer-out">\u2013</dd></dl></section>
<section class="card"><h2>Pool</h2><dl><dt>pool</dt><dd class="big" id="pool-size">\u2013</dd><dt>stempool</dt><dd class="big" id="stempool-size">\u2013</dd></dl></section>
<section class="card"><h2>API requests</h2><div class="big"><span id="req-rate">\u2013</span> <span class="mute">/s</span></div><dl><dt>total</dt><dd id="req-total">\u2013</dd></dl></section>
</div>
<section class="card wide"><h2>Last blocks</h2><div class="scroll"><table><thead><tr><th class="num">height</th><th>algorithm</th><th>age</th><th class="opt">time (UTC)</th><th>hash</th></tr></thead><tbody id="blocks"></tbody></table></div></section>
<section class="card wide"><h2>Connected peers</h2><div class="scroll"><table><thead><tr><th>address</th><th>direction</th><th class="num">height</th><th>capabilities</th><th class="opt">user agent</th></tr></thead><tbody id="peers"></tbody></table></div><p class="mute" id="no-peers">No peer connected.</p></section>
</main>`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>mwnode status</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${BODY}
<script>${SCRIPT}</script>
</body>
</html>
`;

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');

/** Only this page's own script and style, its own origin for the stream, nothing else. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  `style-src 'sha256-${sha256(STYLE)}'`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS: readonly (readonly [string, string])[] = [
  ['content-type', 'text/html; charset=utf-8'],
  ['cache-control', 'no-store'],
  ['content-security-policy', DASHBOARD_CSP],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
];
