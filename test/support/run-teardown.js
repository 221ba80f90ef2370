/** Removes the run's scratch directory (test/support/run-setup.js). */
module.exports = require("./run-setup").teardown;
