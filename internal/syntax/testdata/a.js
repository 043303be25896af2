const x = require('./lib/x');
import React from 'react';
class Widget extends React.Component {
  render() { return x.run(); }
}
function main() { new Widget(); }
module.exports.helper = function () {};
