/** `typescript`, loaded on first use (./lazy.js; jest.config.js maps the name here). */
const { deferred, nodeResolve } = require("./lazy");
module.exports = deferred(() => require(nodeResolve("typescript", __dirname)));
