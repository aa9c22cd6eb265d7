document.body.dataset['rendered'] = '0';
