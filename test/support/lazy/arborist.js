/** `@npmcli/arborist` as @pulumi/pulumi finds it, loaded on first use (./lazy.js; jest.config.js maps the name here). */
const path = require("path");
const { deferred, nodeResolve } = require("./lazy");
const sdk = path.join(__dirname, "..", "..", "..", "node_modules", "@pulumi", "pulumi");
module.exports = deferred(() => require(nodeResolve("@npmcli/arborist", sdk)));
