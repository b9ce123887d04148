// Additions to @jupyter/builder's rspack configuration for the labextension
// (package.json jupyterlab.webpackConfig), merged into it.
module.exports = {
  module: {
    rules: [
      {
        // The style sheets (style/*.raw.css, loaded as strings by the
        // builder's rule) go through lightningcss first: comments and
        // whitespace out, nothing that changes what the rules do.
        test: /\.css$/,
        use: [
          {
            loader: 'builtin:lightningcss-loader',
            options: { minify: true }
          }
        ]
      }
    ]
  }
};
